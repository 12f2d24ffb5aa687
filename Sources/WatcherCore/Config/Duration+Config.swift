extension Duration {
    /// Parses the config form of a duration: a whole number followed by `ms`, `s`, `m`, `h` or `d`,
    /// e.g. `"500ms"`, `"30s"`, `"5m"`, `"1h"`. A bare `"0"` is zero.
    /// - Returns: `nil` when the text is not of that form.
    public init?(configText text: String) {
        if text == "0" {
            self = .zero
            return
        }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 12, let value = Int64(digits) else { return nil }
        switch text.dropFirst(digits.count) {
        case "ms": self = .milliseconds(value)
        case "s": self = .seconds(value)
        case "m": self = .seconds(value * 60)
        case "h": self = .seconds(value * 3600)
        case "d": self = .seconds(value * 86_400)
        default: return nil
        }
    }

    /// The shortest config form that reads back as this duration, e.g. `"5m"`.
    public var configText: String {
        let ms = milliseconds
        if ms == 0 { return "0s" }
        for (unit, size) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
        where ms % size == 0 {
            return "\(ms / size)\(unit)"
        }
        return "\(ms)ms"
    }
}
