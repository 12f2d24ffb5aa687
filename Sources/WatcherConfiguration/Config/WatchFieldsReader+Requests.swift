import Foundation
import WatcherCore
import WatcherJSON

/// The `requests` block of a `wallet` watch: the terms its payment requests follow (`docs/requests.md`). A wallet
/// takes requests only with the block (`"requests": {}` for the defaults).
extension WatchFieldsReader {
    mutating func readRequests(_ reader: ObjectReader, wanted: Bool) {
        guard wanted, reader.has("requests") else {
            _ = reader.raw("requests", type: "object", doc: Self.requestsDoc)
            return
        }
        let block = reader.object("requests", doc: Self.requestsDoc)
        guard block.isPresent else { return }
        var terms = RequestTerms()
        let whole = { (duration: Duration?) in duration.map { Int($0.components.seconds) } }
        terms.expiresSeconds =
            whole(
                block.duration(
                    "expires",
                    default: .seconds(900),
                    minimum: .seconds(1),
                    doc: "How long a request is open for payment."
                )
            ) ?? 900
        terms.settleAfterSeconds =
            whole(
                block.duration(
                    "settleBy",
                    default: .seconds(86_400),
                    doc: "How long after expiry a paid request may take to settle before it is invalid."
                )
            ) ?? 86_400
        terms.confirmations = block.int(
            "confirmations",
            default: 1,
            range: 1...1_000,
            doc: "Confirmations, counted from the tip, that settle a payment."
        )
        let tolerance = block.object("tolerance", doc: "Underpayment accepted: percent and/or sat (the larger).")
        terms.tolerancePercent =
            tolerance.decimal("percent", greaterThan: -1, atMost: 100, doc: "Percent of the amount due.") ?? 0
        terms.toleranceSat = Int64(
            tolerance.int("sat", default: 0, range: 0...100_000_000, doc: "Sat below the amount due.")
        )
        tolerance.finish()
        if tolerance.isPresent { block.show("tolerance", tolerance.resolvedJSON) }
        terms.zeroConf = readZeroConf(block)
        terms.late = readLate(block)
        readRate(block, into: &terms)
        terms.gapWarn = block.int(
            "gapWarn",
            default: 20,
            range: 1...100_000,
            doc: "Consecutive unpaid request addresses past which check and the log warn (what other wallets scan)."
        )
        block.finish()
        reader.show("requests", block.resolvedJSON)
        requests = terms
    }

    private func readZeroConf(_ block: ObjectReader) -> RequestTerms.ZeroConf? {
        guard block.has("zeroConf") else {
            _ = block.raw("zeroConf", type: "object", doc: Self.zeroConfDoc)
            return nil
        }
        let reader = block.object("zeroConf", doc: Self.zeroConfDoc)
        let maxSat = reader.int(
            "maxSat",
            range: 1...2_100_000_000_000_000,
            required: reader.isPresent,
            doc: "The largest amount due settled unconfirmed."
        )
        let allowRbf = reader.bool("allowRbf", default: false, doc: "Whether a payment signalling RBF may settle.")
        let inputs = reader.int(
            "maxUnconfirmedInputs",
            default: 0,
            range: 0...10_000,
            doc: "The most inputs spending unconfirmed outputs."
        )
        let (feeRate, nextBlock) = readMinFeeRate(reader)
        let seenBy = reader.int(
            "minSeenBy",
            range: 1...100,
            doc: "The fewest of the watch's providers that must report an unconfirmed payment."
        )
        reader.finish()
        block.show("zeroConf", reader.resolvedJSON)
        guard let maxSat else { return nil }
        return .init(
            maxSat: Int64(maxSat),
            allowRbf: allowRbf,
            maxUnconfirmedInputs: inputs,
            minFeeRate: feeRate,
            minFeeRateNextBlock: nextBlock ? true : nil,
            minSeenBy: seenBy
        )
    }

    /// `zeroConf.minFeeRate`: a number of sat/vB, or `"nextBlock"` (the next-block fee rate estimated when the
    /// payment is first seen).
    private func readMinFeeRate(_ reader: ObjectReader) -> (Decimal?, Bool) {
        let doc =
            "The lowest fee rate in sat/vB, or \"nextBlock\": what the next block needs, as estimated when "
            + "the payment is first seen."
        guard case .string(let text)? = reader.raw("minFeeRate", type: "number|string", doc: doc) else {
            return (reader.decimal("minFeeRate", greaterThan: 0, doc: doc), false)
        }
        guard text == "nextBlock" else {
            reader.context.error(
                reader.path.key("minFeeRate"),
                "expected a number of sat/vB or \"nextBlock\", got \(JSONValue.quoted(text))"
            )
            return (nil, false)
        }
        reader.show("minFeeRate", .string(text))
        return (nil, true)
    }

    /// `rate`: how old a quote may be, and the price providers whose median quotes a fiat request. Whether each
    /// source is asked every round is checked against the price watches (``ConfigLoader``).
    private func readRate(_ block: ObjectReader, into terms: inout RequestTerms) {
        let rate = block.object("rate", doc: "The price quote of a fiat request: maxAge, sources, agree.")
        terms.maxRateAgeSeconds =
            rate.duration("maxAge", default: .seconds(600), minimum: .seconds(1), doc: "The oldest price used.")
            .map { Int($0.components.seconds) } ?? 600
        let sources = rate.strings(
            "sources",
            doc: "Price providers whose median quotes a fiat request (else the newest stored price)."
        )
        var seen: Set<String> = []
        for (index, source) in sources.enumerated() where !seen.insert(source).inserted {
            rate.context.error(rate.path.key("sources").index(index), "\(JSONValue.quoted(source)) is named twice")
        }
        if rate.has("sources"), sources.isEmpty {
            rate.context.error(rate.path.key("sources"), "expected at least one price provider id")
        }
        let agree = rate.int(
            "agree",
            range: 1...100,
            doc: "How many sources must have a quote within maxAge (default: a majority of them)."
        )
        if let agree, agree > sources.count {
            rate.context.error(
                rate.path.key("agree"),
                sources.isEmpty
                    ? "agree needs sources: the price providers whose quotes must agree"
                    : "agree \(agree) needs \(agree) sources; rate.sources names \(sources.count)"
            )
        }
        rate.finish()
        block.show("rate", rate.resolvedJSON)
        guard !sources.isEmpty else { return }
        terms.rateSources = sources
        terms.rateAgree = min(agree ?? (sources.count / 2 + 1), sources.count)
    }

    private func readLate(_ block: ObjectReader) -> RequestTerms.Late {
        let reader = block.object("late", doc: "Payments that make a request whole after expiry.")
        let accept = reader.bool("accept", default: false, doc: "Settle such a request by rule.")
        let within = reader.duration(
            "within",
            default: .seconds(86_400),
            doc: "How long after expiry such a payment is accepted."
        )
        let drift =
            reader.decimal(
                "maxRateDriftPercent",
                greaterThan: -1,
                atMost: 100,
                doc: "For a fiat request, the most the price may have moved since the quote."
            ) ?? 2
        reader.finish()
        block.show("late", reader.resolvedJSON)
        return .init(accept: accept, withinSeconds: Int(within.components.seconds), maxRateDriftPercent: drift)
    }

    static let requestsDoc =
        "Payment requests on this wallet (wallet watches): expires, settleBy, confirmations, tolerance, zeroConf, "
        + "late, rate, gapWarn; {} for the defaults."
    static let zeroConfDoc =
        "When an unconfirmed payment settles: maxSat, allowRbf, maxUnconfirmedInputs, minFeeRate, minSeenBy."
}
