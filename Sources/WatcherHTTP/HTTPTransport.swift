import AsyncHTTPClient
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import WatcherCore

/// The one HTTP transport of the process, over one shared AsyncHTTPClient.
///
/// Every request has a whole-exchange budget (head **and** body: AsyncHTTPClient's own deadline stops at the
/// response head) and a body cap read with `collect(upTo:)`. It sends `User-Agent: watcher/<version>`.
public struct HTTPTransport: HTTPFetching {
    /// The client, owned by ``HTTPClientService``.
    public let client: HTTPClient
    /// The `User-Agent` header value.
    public let userAgent: String

    /// Creates a transport over `client`.
    public init(client: HTTPClient, userAgent: String) {
        self.client = client
        self.userAgent = userAgent
    }

    public func fetch(_ spec: HTTPRequestSpec) async throws -> HTTPResponseData {
        let transport = self
        do {
            return try await withDeadline(spec.budget) {
                var spec = spec
                var response = try await transport.exchange(spec)
                var hops = 0
                while spec.followRedirects, hops < Self.maxRedirects, let next = Redirect.next(spec, after: response) {
                    spec = next
                    hops += 1
                    response = try await transport.exchange(spec)
                }
                return response
            }
        } catch let error as HTTPFetchError {
            throw error
        } catch is NIOTooManyBytesError {
            throw HTTPFetchError.tooLarge(limit: spec.maxBodyBytes)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw HTTPFetchError.timeout(spec.budget)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw HTTPFetchError.transport(String(describing: error))
        }
    }
}

extension HTTPTransport {
    /// Redirects followed per request, when the request follows them at all.
    static let maxRedirects = 3

    /// One request and its whole body.
    func exchange(_ spec: HTTPRequestSpec) async throws -> HTTPResponseData {
        let response = try await client.execute(
            makeRequest(spec),
            timeout: .nanoseconds(Int64(spec.budget.nanoseconds))
        )
        let body = try await response.body.collect(upTo: spec.maxBodyBytes)
        return HTTPResponseData(
            status: HTTPResponse.Status(code: Int(response.status.code)),
            headerFields: Self.fields(response.headers),
            body: Array(buffer: body)
        )
    }

    /// NIO's header list as swift-http-types fields. A name NIO accepted but HTTP's token grammar does not is
    /// dropped (NIO does not validate names; no caller could look such a field up by name anyway).
    static func fields(_ headers: HTTPHeaders) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in headers {
            guard let name = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        return fields
    }

    func makeRequest(_ spec: HTTPRequestSpec) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: spec.url)
        request.method = HTTPMethod(rawValue: spec.method.rawValue)
        if spec.headerFields[.userAgent] == nil { request.headers.add(name: "User-Agent", value: userAgent) }
        for field in spec.headerFields { request.headers.add(name: field.name.rawName, value: field.value) }
        if let body = spec.body { request.body = .bytes(ByteBuffer(bytes: body)) }
        return request
    }
}

/// Runs `body`, cancelling it and throwing ``HTTPFetchError/timeout(_:)`` when `budget` runs out first.
func withDeadline<T: Sendable>(
    _ budget: Duration,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: budget)
            throw HTTPFetchError.timeout(budget)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw HTTPFetchError.timeout(budget) }
        return first
    }
}
