import Foundation
import HTTPTypes
import WatcherCore
import WatcherJSON

/// How one provider adapter talks HTTP: builds URLs under its base URL, applies its ``HTTPOptions`` (time
/// budget, body cap, extra headers), and maps every transport failure and generic status to the one typed
/// error set, ``ProviderError``, carrying the provider id.
///
/// Adapters keep only what is particular to their API: the paths they ask for and the error bodies they
/// understand. Everything else goes through here so that all adapters fail the same way:
/// - ``HTTPFetchError/timeout(_:)`` → ``ProviderError/timeout(provider:after:)``
/// - ``HTTPFetchError/tooLarge(limit:)`` → ``ProviderError/invalidResponse(provider:detail:)``
/// - ``HTTPFetchError/transport(_:)`` (and any other fetch failure) → ``ProviderError/transport(provider:detail:)``
/// - HTTP 429 → ``ProviderError/rateLimited(provider:retryAfter:)`` with `Retry-After` read by ``RetryAfter``
/// - HTTP 5xx → ``ProviderError/unavailable(provider:status:detail:)``
/// - a body that is not JSON, or JSON of the wrong shape → ``ProviderError/invalidResponse(provider:detail:)``
///
/// ## Example
/// ```swift
/// let http = ProviderHTTP(provider: "bb", baseURL: options.url, http: context.http, options: options.http)
/// let response = try await http.get("/api/v2/tx/\(ProviderHTTP.escape(txid))")
/// try http.checkStatus(response)
/// let txid = try http.json(response).required("txid").string()
/// ```
public struct ProviderHTTP: Sendable, SecretBearing {
    /// The provider id every error names.
    public let provider: String
    /// The base URL without a trailing slash.
    public let baseURL: String
    /// The shared transport.
    public let http: any HTTPFetching
    /// Time budget, body cap and extra headers.
    public let options: HTTPOptions
    /// The wall clock `Retry-After` dates are read against.
    public let time: TimeSource

    /// Creates a client for one provider. `time` only turns an HTTP-date `Retry-After` into a wait; it keeps its
    /// system default because adapters (the example one too) build this client in their public initializers, and
    /// the rate limiter and every wait of the engine read the engine's clock, not this one.
    public init(
        provider: String,
        baseURL: String,
        http: any HTTPFetching,
        options: HTTPOptions,
        time: TimeSource = .system
    ) {
        self.provider = provider
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.http = http
        self.options = options
        self.time = time
    }

    /// `GET` `path` (starting with `/`) under the base URL, with query items escaped.
    /// - Returns: the response, whatever its status.
    /// - Throws: ``ProviderError`` for transport failures, or `CancellationError`.
    public func get(_ path: String, query: [(String, String)] = []) async throws -> HTTPResponseData {
        try await get(url: baseURL + path + Self.queryString(query))
    }

    /// `GET` an absolute URL with this provider's options.
    /// - Throws: ``ProviderError`` for transport failures, or `CancellationError`.
    public func get(url: String) async throws -> HTTPResponseData {
        do {
            return try await http.fetch(options.request(url))
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as HTTPFetchError {
            throw Self.error(error, provider: provider)
        } catch let error as ProviderError {
            throw error
        } catch {
            throw ProviderError.transport(provider: provider, detail: String(describing: error))
        }
    }

    /// The ``ProviderError`` for a fetch failure.
    public static func error(_ error: HTTPFetchError, provider: String) -> ProviderError {
        switch error {
        case .timeout(let budget): .timeout(provider: provider, after: budget)
        case .tooLarge(let limit):
            .invalidResponse(provider: provider, detail: "response body larger than the \(limit)-byte cap")
        case .transport(let detail): .transport(provider: provider, detail: detail)
        }
    }

    /// Throws for the statuses every API means the same way: 429 (rate limited, with `Retry-After`) and
    /// 5xx (unavailable, with the start of the body as detail). Other statuses are the adapter's to read.
    public func checkStatus(_ response: HTTPResponseData) throws {
        if response.status == 429 { throw rateLimited(response) }
        if response.status.kind == .serverError {
            let text = Self.errorText(response.body)
            throw ProviderError.unavailable(
                provider: provider,
                status: response.status.code,
                detail: text.isEmpty ? nil : text
            )
        }
    }

    /// The message of an error body: the `error` or `message` string of a JSON object (Blockbook, haskoin),
    /// the first of Coinbase's `errors`, else ``snippet(_:limit:)`` of the text.
    public static func errorText(_ body: [UInt8]) -> String {
        if let json = try? JSONValue.parse(body) {
            let first = json["errors"]?[0]
            for candidate in [json["error"], json["message"], first?["message"]] {
                if case .string(let text)? = candidate, !text.isEmpty { return text }
            }
        }
        return snippet(body)
    }

    /// ``ProviderError/rateLimited(provider:retryAfter:)`` with the response's `Retry-After`, if readable.
    public func rateLimited(_ response: HTTPResponseData) -> ProviderError {
        let now = time.now()
        let retryAfter = response.headerFields[.retryAfter].flatMap { RetryAfter.parse($0, now: now) }
        return .rateLimited(provider: provider, retryAfter: retryAfter)
    }

    /// Parses the body as JSON.
    /// - Throws: ``ProviderError/invalidResponse(provider:detail:)`` naming the position of the problem.
    public func json(_ response: HTTPResponseData) throws -> JSONNode {
        try Self.json(response.body, provider: provider)
    }

    /// Parses `body` as JSON for `provider`.
    /// - Throws: ``ProviderError/invalidResponse(provider:detail:)`` naming the position of the problem.
    public static func json(_ body: [UInt8], provider: String) throws -> JSONNode {
        do {
            return JSONNode(try JSONValue.parse(body), path: "", provider: provider)
        } catch {
            let start = snippet(body, limit: 60)
            throw ProviderError.invalidResponse(
                provider: provider,
                detail: "not JSON (\(error))"
                    + (start.isEmpty ? ", empty body" : ", body starts \(JSONValue.quoted(start))")
            )
        }
    }

    /// The body as text, whitespace trimmed and HTML tags dropped, at most `limit` characters: for error
    /// messages and for APIs that answer errors in plain text.
    public static func snippet(_ body: [UInt8], limit: Int = 200) -> String {
        var text = String(decoding: body.prefix(4096), as: UTF8.self)
        if text.contains("<") {
            if let title = text.range(of: "<title>"),
                let end = text.range(of: "</title>", range: title.upperBound..<text.endIndex)
            {
                text = String(text[title.upperBound..<end.lowerBound])
            } else {
                text = text.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
            }
        }
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return words.count > limit ? String(words.prefix(limit)) + "…" : words
    }

    /// Percent-escapes one path segment (everything but RFC 3986 unreserved characters), so that input such
    /// as an address or txid cannot reach another endpoint.
    public static func escape(_ segment: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128))
        )
        allowed.insert(charactersIn: "-._~")
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// `?k=v&…` with keys and values escaped, or `""` without items.
    public static func queryString(_ items: [(String, String)]) -> String {
        guard !items.isEmpty else { return "" }
        return "?" + items.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }
}

extension HTTPOptions {
    /// What a provider gets from empty options: a 15 s budget, an 8 MiB body cap, no extra headers.
    public static var standard: HTTPOptions {
        HTTPOptions(from: ObjectReader(.object([]), at: .root, context: ConfigContext(environment: [:])))
    }
}
