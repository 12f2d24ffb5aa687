import Foundation
import Testing
import WatcherSinks
import WatcherTestSupport

@Suite("Standard Webhooks v1 signature")
struct WebhookSignatureTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let id = "msg_p5jXN8AQM9LWM0D4loKWxJek"
    static let body = Array(#"{"test": 2432232314}"#.utf8)
    static let expected = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="

    @Test func signsTheSpecVector() {
        let signature = WebhookSignature.sign(
            secret: Self.secret,
            id: Self.id,
            timestamp: 1_614_265_330,
            body: Self.body
        )
        #expect(signature == Self.expected)
    }

    @Test func verifiesTheSpecVectorAndRejectsATamperedOne() {
        let ok = WebhookSignature.verify(
            secret: Self.secret,
            id: Self.id,
            timestamp: 1_614_265_330,
            body: Self.body,
            header: Self.expected
        )
        #expect(ok)
        let bad = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA="
        #expect(
            !WebhookSignature.verify(
                secret: Self.secret,
                id: Self.id,
                timestamp: 1_614_265_330,
                body: Self.body,
                header: bad
            )
        )
        #expect(
            !WebhookSignature.verify(
                secret: Self.secret,
                id: Self.id,
                timestamp: 1_614_265_331,
                body: Self.body,
                header: Self.expected
            )
        )
    }

    @Test func acceptsRotationListsAndSecretsWithoutPrefixOrPadding() {
        let header = "v2,abc v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA= \(Self.expected)"
        #expect(
            WebhookSignature.verify(
                secret: Self.secret,
                id: Self.id,
                timestamp: 1_614_265_330,
                body: Self.body,
                header: header
            )
        )
        #expect(
            WebhookSignature.verify(
                secret: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                id: Self.id,
                timestamp: 1_614_265_330,
                body: Self.body,
                header: Self.expected
            )
        )
        #expect(!WebhookSignature.isValidSecret("whsec_"))
        #expect(!WebhookSignature.isValidSecret("whsec_!!!"))
    }

    @Test func receiverCheckRejectsStaleTimestampsAndMissingHeaders() {
        let at = Date(timeIntervalSince1970: 1_614_265_330)
        func check(_ ts: String?, _ sig: String?, now: Date) -> Bool {
            WebhookSignature.verify(
                secret: Self.secret,
                id: Self.id,
                timestamp: ts,
                signature: sig,
                body: Self.body,
                now: now
            )
        }
        #expect(check("1614265330", Self.expected, now: at))
        #expect(check("1614265330", Self.expected, now: at.addingTimeInterval(300)))
        #expect(!check("1614265330", Self.expected, now: at.addingTimeInterval(301)))
        #expect(!check("1614265330", Self.expected, now: at.addingTimeInterval(-301)))
        #expect(!check("hello", Self.expected, now: at))
        #expect(!check(nil, Self.expected, now: at))
        #expect(!check("1614265330", nil, now: at))
    }
}
