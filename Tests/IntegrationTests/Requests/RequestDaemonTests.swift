import Foundation
import Testing
import WatcherBitcoin
import WatcherCore
import WatcherJSON
import WatcherSimnet
import WatcherTesting

/// Payment requests through the real daemon and the real CLI on a simnet (issue 35's "done when"): each request's
/// events in order, each carrying `dueSat` and `paidSat`, and no event id twice.
@Suite(.timeLimit(.minutes(4)))
struct RequestDaemonTests {
    @Test func createBySatByFiatAndTheSameOrderIdTwice() async throws {
        try await RequestHarness.withDaemon { _, config, data in
            let first = try await RequestHarness.cli(
                ["create", "shop", "--sat", "40000", "--order-id", "1042"],
                config: config
            )
            let id = try #require(first["id"]?.stringValue)
            #expect(first["dueSat"] == .number("40000") && first["status"] == .string("open"))
            #expect(
                first["uri"] == .string("bitcoin:\(try WalletHarness.address(.receive, 0))?amount=0.0004&message=1042")
            )
            let again = try await RequestHarness.cli(
                ["create", "shop", "--sat", "50000", "--order-id", "1042"],
                config: config
            )
            #expect(again["id"] == .string(id) && again["dueSat"] == .number("40000") && again["index"] == .number("0"))

            // Fiat: refused until a price is stored, then at the stored rate, rounded up.
            let fiat = try await eventuallyValue(timeout: .seconds(60), "a EUR price to quote from") {
                () -> JSONValue? in
                let result = try await WatcherProcess.run(
                    ["requests", "create", "shop", "--amount", "25", "--currency", "EUR", "--json", "--config", config]
                )
                if result.status == 2 {
                    #expect(result.stderr.contains("no EUR price is stored yet"), "\(result.stderr)")
                }
                return result.status == 0 ? try JSONValue.parse(result.stdout) : nil
            }
            let rate = try #require(fiat["amount"]?["rate"]?.stringValue.flatMap { Decimal(string: $0) })
            var exact = Decimal(25) * 100_000_000 / rate
            var rounded = Decimal()
            NSDecimalRound(&rounded, &exact, 0, .up)
            #expect(fiat["dueSat"] == .number("\(rounded)"), "\(fiat)")
            #expect(fiat["index"] == .number("1") && fiat["amount"]?["rateSource"] == .string("cd"))
            let due = Int64("\(rounded)") ?? 0
            #expect(
                fiat["uri"]?.stringValue?.hasSuffix(
                    "?amount=0.\(String(format: "%08lld", due))".replacingOccurrences(
                        of: "0+$",
                        with: "",
                        options: .regularExpression
                    )
                ) == true,
                "\(fiat)"
            )

            let listed = try await RequestHarness.cli(["list"], config: config)
            #expect(listed.arrayValue?.count == 2)
            try await RequestHarness.wait(data, id, "request.created")
            let fiatID = try #require(fiat["id"]?.stringValue)
            try await RequestHarness.wait(data, fiatID, "request.created")
            #expect(RequestHarness.types(data, request: id) == ["request.created"])
            RequestHarness.expectNoRepeatedIDs(data)
        }
    }

    @Test func anExactPaymentSettlesAndALaterOneIsSeenAsAnOverpayment() async throws {
        try await RequestHarness.withDaemon { simnet, config, data in
            let request = try await RequestHarness.cli(["create", "shop", "--sat", "40000"], config: config)
            let id = try #require(request["id"]?.stringValue)
            let address = try #require(request["address"]?.stringValue)
            let txid = try await simnet.pay(to: address, amountSat: 40_000)
            let paid = try await RequestHarness.wait(data, id, "request.paid")
            #expect(paid["data"]?["payments"]?[0]?["txid"] == .string(txid))
            #expect(paid["data"]?["payments"]?[0]?["rbf"] == .bool(true))
            _ = try await simnet.mine()
            let settled = try await RequestHarness.wait(data, id, "request.settled")
            #expect(settled["data"]?["policy"] == .string("confirmations>=1"))
            #expect(settled["data"]?["payments"]?[0]?["confirmations"] == .number("1"))
            // A second payment after settlement: seen, flagged, still settled.
            try await simnet.pay(to: address, amountSat: 5_000)
            try await RequestHarness.wait(data, id, "request.payment.seen", occurrence: 2)
            let shown = try await RequestHarness.cli(["show", id], config: config)
            #expect(shown["status"] == .string("settled") && shown["overpaid"] == .bool(true))
            #expect(shown["paidSat"] == .number("45000") && shown["overpaidSat"] == .number("5000"))
            #expect(
                RequestHarness.amounts(data, request: id) == [
                    "request.created:40000/0", "request.payment.seen:40000/40000", "request.paid:40000/40000",
                    "request.settled:40000/40000", "request.payment.seen:40000/45000",
                ]
            )
            RequestHarness.expectNoRepeatedIDs(data)
        }
    }

    @Test func underpaymentsInsideAndOutsideTheToleranceThenATopUp() async throws {
        try await RequestHarness.withDaemon(requests: #"{"tolerance": {"sat": 300}}"#) { simnet, config, data in
            let inside = try await RequestHarness.cli(["create", "shop", "--sat", "40000"], config: config)
            let outside = try await RequestHarness.cli(["create", "shop", "--sat", "40000"], config: config)
            let insideID = try #require(inside["id"]?.stringValue)
            let outsideID = try #require(outside["id"]?.stringValue)
            try await simnet.pay(to: try #require(inside["address"]?.stringValue), amountSat: 39_800)
            try await simnet.pay(to: try #require(outside["address"]?.stringValue), amountSat: 39_000)
            try await RequestHarness.wait(data, insideID, "request.paid")
            try await RequestHarness.wait(data, outsideID, "request.partial")
            try await simnet.pay(to: try #require(outside["address"]?.stringValue), amountSat: 1_000)
            try await RequestHarness.wait(data, outsideID, "request.paid")
            _ = try await simnet.mine()
            try await RequestHarness.wait(data, insideID, "request.settled")
            try await RequestHarness.wait(data, outsideID, "request.settled")
            #expect(
                RequestHarness.amounts(data, request: insideID) == [
                    "request.created:40000/0", "request.payment.seen:40000/39800", "request.paid:40000/39800",
                    "request.settled:40000/39800",
                ]
            )
            #expect(
                RequestHarness.amounts(data, request: outsideID) == [
                    "request.created:40000/0", "request.payment.seen:40000/39000", "request.partial:40000/39000",
                    "request.payment.seen:40000/40000", "request.paid:40000/40000", "request.settled:40000/40000",
                ]
            )
            RequestHarness.expectNoRepeatedIDs(data)
        }
    }

    @Test func aPaymentAfterExpiryIsLateThenAcceptedByRule() async throws {
        let terms = #"{"expires": "2s", "late": {"accept": true, "within": "1h"}}"#
        try await RequestHarness.withDaemon(requests: terms) { simnet, config, data in
            let request = try await RequestHarness.cli(["create", "shop", "--sat", "30000"], config: config)
            let id = try #require(request["id"]?.stringValue)
            let expired = try await RequestHarness.wait(data, id, "request.expired")
            #expect(expired["data"]?["paidSat"] == .number("0"))
            try await simnet.pay(to: try #require(request["address"]?.stringValue), amountSat: 30_000)
            let late = try await RequestHarness.wait(data, id, "request.late")
            #expect(late["data"]?["late"] == .bool(true) && late["data"]?["status"] == .string("late"))
            _ = try await simnet.mine()
            let settled = try await RequestHarness.wait(data, id, "request.settled")
            #expect(settled["data"]?["policy"] == .string("late.accept, confirmations>=1"))
            #expect(
                RequestHarness.types(data, request: id) == [
                    "request.created", "request.expired", "request.payment.seen", "request.late", "request.settled",
                ]
            )
            RequestHarness.expectNoRepeatedIDs(data)
        }
    }

    @Test func aReplacementThatDropsThePaymentIsNamedAndTheStatusFallsBack() async throws {
        try await RequestHarness.withDaemon { simnet, config, data in
            let request = try await RequestHarness.cli(["create", "shop", "--sat", "25000"], config: config)
            let id = try #require(request["id"]?.stringValue)
            let txid = try await simnet.pay(to: try #require(request["address"]?.stringValue), amountSat: 25_000)
            try await RequestHarness.wait(data, id, "request.paid")
            let replacement = try await simnet.replace(txid)
            let replaced = try await RequestHarness.wait(data, id, "request.payment.replaced")
            #expect(replaced["data"]?["replacedBy"] == .string(replacement), "\(replaced)")
            #expect(replaced["data"]?["stillPays"] == .bool(false))
            #expect(replaced["data"]?["status"] == .string("open") && replaced["data"]?["paidSat"] == .number("0"))
            #expect(replaced["data"]?["payment"]?["state"] == .string("replaced"))
            let shown = try await RequestHarness.cli(["show", id], config: config)
            #expect(shown["status"] == .string("open"))
            RequestHarness.expectNoRepeatedIDs(data)
        }
    }

    @Test func aReorgAfterSettlementRevertsAndTheNextBlockSettlesAgain() async throws {
        try await RequestHarness.withDaemon(seed: 2) { simnet, config, data in
            let request = try await RequestHarness.cli(["create", "shop", "--sat", "35000"], config: config)
            let id = try #require(request["id"]?.stringValue)
            let txid = try await simnet.pay(to: try #require(request["address"]?.stringValue), amountSat: 35_000)
            try await RequestHarness.wait(data, id, "request.paid")
            _ = try await simnet.mine()
            try await RequestHarness.wait(data, id, "request.settled")
            try await simnet.reorg(depth: 1)
            // The seed decides each replaced transaction's fate; under this seed the payment returns to the mempool.
            let chain = await simnet.chain()
            try #require(chain.mempool.contains(txid), "the seed no longer returns the payment to the mempool")
            let reverted = try await RequestHarness.wait(data, id, "request.reverted")
            #expect(reverted["data"]?["payments"]?[0]?["confirmations"] == .number("0"))
            _ = try await simnet.mine()
            let again = try await RequestHarness.wait(data, id, "request.settled", occurrence: 2)
            #expect(again["data"]?["payments"]?[0]?["confirmations"] == .number("1"))
            #expect(
                RequestHarness.types(data, request: id) == [
                    "request.created", "request.payment.seen", "request.paid", "request.settled", "request.reverted",
                    "request.settled",
                ]
            )
            _ = config
            RequestHarness.expectNoRepeatedIDs(data)
        }
    }

    @Test func zeroConfSettlesOnTheFactsAndRefusesAnRBFPayment() async throws {
        let terms = #"{"zeroConf": {"maxSat": 50000, "allowRbf": false, "maxUnconfirmedInputs": 0, "minFeeRate": 1}}"#
        try await RequestHarness.withDaemon(requests: terms) { simnet, config, data in
            let final = try await RequestHarness.cli(["create", "shop", "--sat", "30000"], config: config)
            let signalling = try await RequestHarness.cli(["create", "shop", "--sat", "30000"], config: config)
            let finalID = try #require(final["id"]?.stringValue)
            let signallingID = try #require(signalling["id"]?.stringValue)
            try await simnet.pay(to: try #require(final["address"]?.stringValue), amountSat: 30_000, rbf: false)
            try await simnet.pay(to: try #require(signalling["address"]?.stringValue), amountSat: 30_000, rbf: true)
            // No block: the payment that does not signal RBF settles on its facts, the other waits.
            let settled = try await RequestHarness.wait(data, finalID, "request.settled")
            #expect(settled["data"]?["policy"] == .string("zeroConf"), "\(settled)")
            #expect(settled["data"]?["payments"]?[0]?["rbf"] == .bool(false))
            #expect(settled["data"]?["payments"]?[0]?["confirmations"] == .number("0"))
            let paid = try await RequestHarness.wait(data, signallingID, "request.paid")
            #expect(paid["data"]?["payments"]?[0]?["rbf"] == .bool(true))
            #expect(!RequestHarness.types(data, request: signallingID).contains("request.settled"))
            _ = try await simnet.mine()
            let confirmed = try await RequestHarness.wait(data, signallingID, "request.settled")
            #expect(confirmed["data"]?["policy"] == .string("confirmations>=1"))
            RequestHarness.expectNoRepeatedIDs(data)
        }
    }

    @Test func aRestartAcrossTheExpiryAnnouncesItOnce() async throws {
        let configuration = SimnetConfiguration(
            chain: ChainParameters(seed: 9, txsPerBlock: 1, mempoolTxsPerBlock: 0, fundedAddressCount: 20)
        )
        try await Harness.withData(configuration) { simnet, _, data in
            let config = try RequestHarness.config(simnet, data, requests: #"{"expires": "2s"}"#)
            // Created with no daemon running; the daemon starts only after the expiry.
            let request = try await RequestHarness.cli(["create", "shop", "--sat", "20000"], config: config)
            let id = try #require(request["id"]?.stringValue)
            let expiresAt = try #require(request["expiresAt"]?.stringValue)
            try await eventually(timeout: .seconds(30), "the expiry to pass") {
                ISO8601DateFormatter.withMilliseconds.date(from: expiresAt).map { Date() > $0 } ?? false
            }
            var daemon = try WatcherProcess.daemon(config: config)
            try await RequestHarness.wait(data, id, "request.expired")
            #expect(try await WatcherProcess.stop(daemon) == 0)
            daemon = try WatcherProcess.daemon(config: config)
            defer { daemon.signal(SIGTERM) }
            // The restarted daemon has run a full round once a new block is announced.
            let block = try #require(try await simnet.mine().first)
            try await eventually(timeout: .seconds(60), "block \(block.height) announced after the restart") {
                RequestHarness.events(data).contains {
                    $0["type"] == .string("block.new") && $0["data"]?["height"] == .number("\(block.height)")
                }
            }
            #expect(RequestHarness.types(data, request: id) == ["request.created", "request.expired"])
            #expect(try await WatcherProcess.stop(daemon) == 0)
            RequestHarness.expectNoRepeatedIDs(data)
        }
    }
}

extension ISO8601DateFormatter {
    /// `2026-11-29T09:05:06.313Z`.
    static var withMilliseconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
