import Crypto
import Foundation
import WatcherCore

/// Standard Webhooks v1 signing: `v1,` + base64(HMAC-SHA256(key, "id.timestamp.body")), where key is the
/// base64-decoded secret after its `whsec_` prefix.
///
/// ```swift
/// let header = WebhookSignature.sign(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
///                                    id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330,
///                                    body: Array(#"{"test": 2432232314}"#.utf8))
/// // "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
/// ```
public enum WebhookSignature {
    /// Whether `secret` is valid base64 with or without the `whsec_` prefix (padding optional), decoding to at
    /// least one byte.
    public static func isValidSecret(_ secret: String) -> Bool { key(from: secret) != nil }

    static func key(from secret: String) -> SymmetricKey? {
        var encoded = secret.hasPrefix("whsec_") ? String(secret.dropFirst(6)) : secret
        if encoded.count % 4 != 0 { encoded += String(repeating: "=", count: 4 - encoded.count % 4) }
        guard let data = Data(base64Encoded: encoded), !data.isEmpty else { return nil }
        return SymmetricKey(data: data)
    }

    static func message(id: String, timestamp: Int, body: [UInt8]) -> [UInt8] {
        var message = Array("\(id).\(timestamp).".utf8)
        message += body
        return message
    }

    static func sign(key: SymmetricKey, id: String, timestamp: Int, body: [UInt8]) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: message(id: id, timestamp: timestamp, body: body), using: key)
        return "v1," + Data(mac).base64EncodedString()
    }

    /// The `webhook-signature` header value.
    /// - Returns: `nil` when the secret is not valid.
    public static func sign(secret: String, id: String, timestamp: Int, body: [UInt8]) -> String? {
        key(from: secret).map { sign(key: $0, id: id, timestamp: timestamp, body: body) }
    }

    /// Checks a `webhook-signature` header, which may list several space-separated signatures: it passes when any
    /// `v1,` entry matches (compared in constant time); other versions are ignored.
    public static func verify(secret: String, id: String, timestamp: Int, body: [UInt8], header: String) -> Bool {
        guard let key = key(from: secret) else { return false }
        let message = message(id: id, timestamp: timestamp, body: body)
        return header.split(separator: " ").contains { entry in
            guard entry.hasPrefix("v1,"), let mac = Data(base64Encoded: String(entry.dropFirst(3))) else {
                return false
            }
            return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: message, using: key)
        }
    }

    /// Verifies a received webhook as a receiver should: all three headers present, the timestamp within
    /// `tolerance` of `now` in either direction, and a matching `v1` signature.
    /// - Parameters:
    ///   - secret: the shared secret, `whsec_…`.
    ///   - id: the `webhook-id` header.
    ///   - timestamp: the `webhook-timestamp` header, as received.
    ///   - signature: the `webhook-signature` header.
    ///   - body: the raw request body.
    ///   - now: the receiver's time.
    ///   - tolerance: the accepted clock difference (the spec's libraries use 5 minutes).
    public static func verify(
        secret: String,
        id: String?,
        timestamp: String?,
        signature: String?,
        body: [UInt8],
        now: Date = Date(),
        tolerance: Duration = .seconds(300)
    ) -> Bool {
        guard let id, let signature, let timestamp, let seconds = Int(timestamp) else { return false }
        guard abs(now.timeIntervalSince1970 - Double(seconds)) <= tolerance.timeInterval else { return false }
        return verify(secret: secret, id: id, timestamp: seconds, body: body, header: signature)
    }
}
