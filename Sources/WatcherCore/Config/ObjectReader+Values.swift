import Foundation
import WatcherJSON

extension ObjectReader {
    /// A string option; `${NAME}` references are resolved from the environment and masked in display.
    public func string(_ key: String, default: String? = nil, required: Bool = false, doc: String) -> String? {
        let value = raw(key, type: "string", default: `default`.map(JSONValue.string), required: required, doc: doc)
        return resolvedString(key, value, default: `default`, secret: false)
    }

    /// A secret: shown as `"${NAME}"` or `"********"`, never as its value.
    public func secret(_ key: String, required: Bool = false, doc: String) -> String? {
        let value = raw(key, type: "secret", required: required, doc: doc)
        return resolvedString(key, value, default: nil, secret: true)
    }

    func resolvedString(_ key: String, _ value: JSONValue?, default: String?, secret: Bool) -> String? {
        guard let value else {
            show(key, `default`.map(JSONValue.string))
            return `default`
        }
        guard case .string(let text) = value else {
            typeError(key, expected: "a string", got: value)
            return nil
        }
        guard let (resolvedText, fromEnvironment) = context.resolve(text, at: path.key(key)) else { return nil }
        show(key, .string(fromEnvironment ? text : (secret ? "********" : text)))
        return resolvedText
    }

    /// One of `allowed` strings.
    public func choice(_ key: String, _ allowed: [String], default: String? = nil, doc: String) -> String? {
        let type = "enum(" + allowed.joined(separator: "|") + ")"
        let value = raw(key, type: type, default: `default`.map(JSONValue.string), required: `default` == nil, doc: doc)
        guard let value else {
            show(key, `default`.map(JSONValue.string))
            return `default`
        }
        guard case .string(let text) = value, allowed.contains(text) else {
            typeError(key, expected: "one of " + allowed.map { "\"\($0)\"" }.joined(separator: ", "), got: value)
            return nil
        }
        show(key, value)
        return text
    }

    /// An integer within `range`.
    public func int(
        _ key: String,
        default: Int? = nil,
        range: ClosedRange<Int> = Int.min...Int.max,
        required: Bool = false,
        doc: String
    ) -> Int? {
        let value = raw(key, type: "integer", default: `default`.map { .number("\($0)") }, required: required, doc: doc)
        guard let value else {
            show(key, `default`.map { .number("\($0)") })
            return `default`
        }
        guard case .number(let text) = value, let number = Int(text) else {
            typeError(key, expected: "an integer", got: value)
            return nil
        }
        guard range.contains(number) else {
            let bounds =
                range.upperBound == Int.max
                ? "at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            context.error(path.key(key), "expected an integer \(bounds), got \(number)")
            return nil
        }
        show(key, value)
        return number
    }

    /// A boolean.
    public func bool(_ key: String, default: Bool, doc: String) -> Bool {
        let value = raw(key, type: "boolean", default: .bool(`default`), doc: doc)
        guard let value else {
            show(key, .bool(`default`))
            return `default`
        }
        guard case .bool(let flag) = value else {
            typeError(key, expected: "true or false", got: value)
            return `default`
        }
        show(key, value)
        return flag
    }

    /// A duration written `"500ms"`, `"30s"`, `"5m"`, `"1h"`.
    public func duration(
        _ key: String,
        default: Duration? = nil,
        minimum: Duration = .zero,
        required: Bool = false,
        doc: String
    ) -> Duration? {
        let value = raw(
            key,
            type: "duration",
            default: `default`.map { .string($0.configText) },
            required: required,
            doc: doc
        )
        guard let value else {
            show(key, `default`.map { .string($0.configText) })
            return `default`
        }
        guard case .string(let text) = value, let duration = Duration(configText: text) else {
            typeError(key, expected: "a duration such as \"500ms\", \"30s\", \"5m\" or \"1h\"", got: value)
            return nil
        }
        guard duration >= minimum else {
            context.error(path.key(key), "expected a duration of at least \(minimum.configText), got \"\(text)\"")
            return nil
        }
        show(key, value)
        return duration
    }

    /// An http(s) URL (other schemes only if listed).
    public func url(
        _ key: String,
        default: String? = nil,
        schemes: [String] = ["http", "https"],
        required: Bool = false,
        doc: String
    ) -> String? {
        let value = raw(key, type: "url", default: `default`.map(JSONValue.string), required: required, doc: doc)
        guard let text = resolvedString(key, value, default: `default`, secret: false) else { return nil }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            schemes.contains(scheme), let host = components.host, !host.isEmpty
        else {
            let shown = value.flatMap(\.stringValue) ?? text
            let kind = schemes == ["http", "https"] ? "an http(s) URL" : "a URL (\(schemes.joined(separator: ", ")))"
            context.error(
                path.key(key),
                "expected \(kind), got \(JSONValue.quoted(context.redact(shown)))"
                    + URLSecretHint.suffix(forWritten: value?.stringValue ?? "")
            )
            return nil
        }
        return text
    }

    /// An array of strings.
    public func strings(_ key: String, default: [String] = [], required: Bool = false, doc: String) -> [String] {
        let defaultJSON: JSONValue? = `default`.isEmpty ? nil : .array(`default`.map(JSONValue.string))
        let value = raw(key, type: "string[]", default: defaultJSON, required: required, doc: doc)
        guard let value else {
            show(key, defaultJSON)
            return `default`
        }
        guard case .array(let items) = value else {
            typeError(key, expected: "an array of strings", got: value)
            return []
        }
        var result: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item else {
                context.error(path.key(key).index(index), "expected a string, got \(item.typeDescription)")
                continue
            }
            if let (resolvedText, _) = context.resolve(text, at: path.key(key).index(index)) {
                result.append(resolvedText)
            }
        }
        show(key, value)
        return result
    }

    /// String-to-string pairs, e.g. extra HTTP headers; values may hold `${NAME}` secrets.
    public func stringMap(_ key: String, doc: String) -> [(name: String, value: String)] {
        guard let value = raw(key, type: "object", doc: doc) else { return [] }
        guard case .object(let members) = value else {
            typeError(key, expected: "an object of strings", got: value)
            return []
        }
        var result: [(name: String, value: String)] = []
        var shown: [JSONValue.Member] = []
        for member in members {
            guard case .string(let text) = member.value else {
                context.error(path.key(key).key(member.key), "expected a string, got \(member.value.typeDescription)")
                continue
            }
            guard let (resolvedText, isSecret) = context.resolve(text, at: path.key(key).key(member.key)) else {
                continue
            }
            result.append((member.key, resolvedText))
            let sensitive = ["auth", "key", "token", "secret", "password"].contains {
                member.key.lowercased().contains($0)
            }
            shown.append(.init(member.key, .string(isSecret || !sensitive ? text : "********")))
        }
        show(key, .object(shown))
        return result
    }
}
