import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WatcherJSON
import WatcherQR
import WatcherRules
import WatcherTestSupport
import WatcherTesting

/// `/api/requests` refuses bad input as `/api/accounts` does (413 past 16 KiB, 400 naming the field, 405 with
/// `Allow`), needs the token when the daemon has one, uses up no address for a refused request, and finds an
/// order id's request again; `watcher requests create` gives the same reasons with exit 2. A real `watcher run
/// --http --http-token` over a real store; creating needs no provider, so the provider answers nothing.
@Suite(.timeLimit(.minutes(3)))
struct RequestAPITests {
    static let token = "request-api-token-5c1e"

    static func config(_ data: String) throws -> String {
        let json = """
            {"storage": {"path": "\(data)"},
             "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "http://127.0.0.1:9"}}],
             "watches": [{"id": "shop", "type": "wallet", "providers": ["bb"], "strategy": "scan",
                          "descriptor": "\(WalletHarness.descriptor)", "gap": 3, "requests": {}},
                         {"id": "plain", "type": "wallet", "providers": ["bb"], "strategy": "scan",
                          "xpub": "xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V"}],
             "sinks": [{"id": "out", "type": "stdout"}]}
            """
        let path = "\(data)/watcher.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func send(
        _ client: HTTPClient,
        _ url: String,
        _ method: HTTPMethod,
        body: String? = nil,
        token: String? = RequestAPITests.token
    ) async throws -> (status: Int, body: String, allow: String?) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: bytes), response.headers.first(name: "Allow"))
    }

    /// The `error` of an error answer.
    static func error(_ body: String) -> String { (try? JSONValue.parse(body))?["error"]?.stringValue ?? body }

    @Test func badInputIsRefusedBeforeAnAddressIsUsed() async throws {
        let directory = try TemporaryDirectory("request-api")
        defer { directory.remove() }
        let data = directory.path
        let config = try Self.config(data)
        let daemon = try await StatusDaemon.start(config: config, data: data, arguments: ["--http-token", Self.token])
        let base = daemon.base + "/api/requests"
        let status = try await daemon.whileRunning { client in
            let huge = #"{"wallet": "shop", "sat": 1000, "label": ""# + String(repeating: "x", count: 20_000) + #""}"#
            let tooLarge = try await Self.send(client, base, .POST, body: huge)
            #expect(tooLarge.status == 413 && tooLarge.body.contains("larger than 16384 bytes"), "\(tooLarge)")
            let refusals: [(String, String)] = [
                (#"{"wallet": "shop", "sat": -5}"#, "sat: expected a positive amount of sat, got -5"),
                (#"{"wallet": "shop", "sat": 0}"#, "sat: expected a positive amount of sat, got 0"),
                (#"{"wallet": "shop", "sat": 545}"#, "sat: 545 sat is below the dust limit (546 sat)"),
                (#"{"wallet": "shop", "sat": "40000"}"#, "sat: expected a whole number of sat, got a string"),
                (#"{"wallet": "shop", "sat": 1.5}"#, "sat: expected a whole number of sat, got 1.5"),
                (#"{"wallet": "shop", "amount": "25", "currency": "JPY"}"#, "currency: unknown currency \"JPY\""),
                (#"{"wallet": "shop", "amount": "-2", "currency": "EUR"}"#, "amount: expected a positive amount"),
                (#"{"wallet": "shop", "amount": "25"}"#, "currency: required with amount"),
                (#"{"wallet": "shop", "sat": 1000, "amount": "1", "currency": "EUR"}"#, "give one, not both"),
                (#"{"wallet": "shop"}"#, "sat or amount: required"),
                (#"{"sat": 1000}"#, "wallet: required"),
                (#"{"wallet": "nope", "sat": 1000}"#, "wallet: no wallet \"nope\" that takes requests"),
                (#"{"wallet": "plain", "sat": 1000}"#, "wallet: no wallet \"plain\" that takes requests"),
                (
                    #"{"wallet": "shop", "sat": 1000, "label": "\#(String(repeating: "é", count: 101))"}"#,
                    "the label has 101 characters; the limit is 100"
                ),
                (
                    #"{"wallet": "shop", "sat": 1000, "orderId": "\#(String(repeating: "7", count: 101))"}"#,
                    "orderId: the order id has 101 characters; the limit is 100"
                ),
                (#"{"wallet": "shop", "sat": 1000, "label": ["a"]}"#, "label must be a string, got an array"),
                (#"{"wallet": "shop", "sat": 1000, "expires": "soon"}"#, "expires: expected a duration"),
                (#"[1, 2]"#, "expected a JSON object"),
            ]
            for (body, reason) in refusals {
                let refused = try await Self.send(client, base, .POST, body: body)
                #expect(refused.status == 400 && Self.error(refused.body).contains(reason), "\(body): \(refused)")
            }
            let unauthorized = try await Self.send(
                client,
                base,
                .POST,
                body: #"{"wallet": "shop", "sat": 1000}"#,
                token: nil
            )
            #expect(unauthorized.status == 401, "\(unauthorized)")
            for (path, methods, allow) in [
                ("", [HTTPMethod.PUT, .DELETE], "GET, POST"), ("/req_x", [.POST, .DELETE], "GET"),
                ("/req_x/cancel", [.GET, .PUT], "POST"), ("/req_x/mark", [.GET], "POST"),
            ] {
                for method in methods {
                    let refused = try await Self.send(client, base + path, method)
                    #expect(refused.status == 405 && refused.allow == allow, "\(method) \(path): \(refused)")
                }
            }

            // Nothing refused used an address: the first request gets receive index 0.
            let made = try await Self.send(
                client,
                base,
                .POST,
                body: #"{"wallet": "shop", "sat": 40000, "orderId": "1042", "label": "Shop"}"#
            )
            #expect(made.status == 201, "\(made)")
            let request = try JSONValue.parse(made.body)
            #expect(request["index"] == .number("0") && request["status"] == .string("open"))
            let id = try #require(request["id"]?.stringValue)
            let again = try await Self.send(
                client,
                base,
                .POST,
                body: #"{"wallet": "shop", "sat": 1000, "orderId": "1042"}"#
            )
            let found = try JSONValue.parse(again.body)
            #expect(again.status == 200 && found["id"] == .string(id), "\(again)")

            let listed = try await Self.send(client, base + "?status=open", .GET)
            #expect(try JSONValue.parse(listed.body).arrayValue?.count == 1, "\(listed)")
            let badStatus = try await Self.send(client, base + "?status=done", .GET)
            #expect(
                badStatus.status == 400 && Self.error(badStatus.body).contains("unknown status \"done\""),
                "\(badStatus)"
            )
            let byOrder = try await Self.send(client, base + "/1042", .GET)
            #expect(try JSONValue.parse(byOrder.body)["id"] == .string(id), "\(byOrder)")
            let missing = try await Self.send(client, base + "/req_nothing", .GET)
            #expect(missing.status == 404, "\(missing)")

            let badMark = try await Self.send(client, base + "/\(id)/mark", .POST, body: #"{"status": "paid"}"#)
            #expect(badMark.status == 400 && badMark.body.contains("settled"), "\(badMark)")
            let markMissing = try await Self.send(
                client,
                base + "/req_nothing/mark",
                .POST,
                body: #"{"status": "invalid"}"#
            )
            #expect(markMissing.status == 404, "\(markMissing)")
            let cancelled = try await Self.send(client, base + "/\(id)/cancel", .POST, body: #"{"note": "left"}"#)
            #expect(cancelled.status == 200, "\(cancelled)")
            #expect(try JSONValue.parse(cancelled.body)["status"] == .string("cancelled"))
            let marked = try await Self.send(client, base + "/\(id)/mark", .POST, body: #"{"status": "invalid"}"#)
            #expect(try JSONValue.parse(marked.body)["marked"] == .bool(true), "\(marked)")

            // The CLI gives the same reasons with exit 2, and uses up no address either.
            for (arguments, reason) in [
                (["--sat", "545"], "--sat: 545 sat is below the dust limit"),
                (["--amount", "25", "--currency", "JPY"], "--currency: unknown currency \"JPY\""),
                (["--amount", "25"], "--amount needs --currency"),
                (
                    ["--order-id", String(repeating: "7", count: 101), "--sat", "1000"],
                    "--order-id: the order id has 101"
                ),
            ] {
                let cli = try await WatcherProcess.run(
                    ["requests", "create", "shop"] + arguments + ["--config", config]
                )
                #expect(cli.status == 2 && cli.stderr.contains(reason), "\(arguments): \(cli.stderr)")
            }
            let plain = try await WatcherProcess.run([
                "requests", "create", "plain", "--sat", "1000", "--config", config,
            ])
            #expect(plain.status == 2 && plain.stderr.contains("takes no payment requests"), "\(plain.stderr)")
            let next = try await Self.send(client, base, .POST, body: #"{"wallet": "shop", "sat": 1000}"#)
            #expect(try JSONValue.parse(next.body)["index"] == .number("1"), "\(next)")
        }
        #expect(status == 0)
    }

    /// The Requests tab lists a request, its page shows the URI, and its QR code (`/ui/requests/{id}/qr.png`, from
    /// libqrencode) decodes with zbar (`zbarimg`, Debian's zbar-tools) to exactly that URI.
    @Test func theRequestPageHasAQRCodeThatDecodesToTheExactURI() async throws {
        let directory = try TemporaryDirectory("request-qr")
        defer { directory.remove() }
        let data = directory.path
        let config = try Self.config(data)
        let daemon = try await StatusDaemon.start(config: config, data: data, arguments: ["--http-token", Self.token])
        let status = try await daemon.whileRunning { client in
            let made = try await Self.send(
                client,
                daemon.base + "/api/requests",
                .POST,
                body: #"{"wallet": "shop", "sat": 40827, "orderId": "1042", "label": "Café & Co"}"#
            )
            let request = try JSONValue.parse(made.body)
            let id = try #require(request["id"]?.stringValue)
            let uri = try #require(request["uri"]?.stringValue)
            #expect(uri.hasSuffix("?amount=0.00040827&label=Caf%C3%A9%20%26%20Co&message=1042"), "\(uri)")
            let list = try await Self.send(client, daemon.base + "/ui/requests", .GET)
            #expect(list.body.contains(#"data-request="\#(id)""#) && list.body.contains("open"), "\(list.body)")
            let page = try await Self.send(client, daemon.base + "/ui/requests/\(id)", .GET)
            #expect(page.body.contains(#"src="/ui/requests/\#(id)/qr.png""#), "\(page.body)")
            #expect(page.body.contains(uri.replacingOccurrences(of: "&", with: "&amp;")), "\(page.body)")

            var get = HTTPClientRequest(url: daemon.base + "/ui/requests/\(id)/qr.png")
            get.method = .GET
            let response = try await client.execute(get, timeout: .seconds(30))
            #expect(response.headers.first(name: "Content-Type") == "image/png")
            let png = try await response.body.collect(upTo: 1 << 20)
            let file = "\(data)/qr.png"
            try Data(png.readableBytesView).write(to: URL(fileURLWithPath: file))
            let zbar = "/usr/bin/zbarimg"
            try #require(
                FileManager.default.isExecutableFile(atPath: zbar),
                "zbarimg is missing: install Debian's zbar-tools (make test-deps does)"
            )
            let decoded = try await ProcessRunner.run([zbar, "--raw", "-q", file], scratch: data)
            #expect(decoded.status == 0, "\(decoded.output)")
            #expect(decoded.output.split(separator: "\n").map(String.init).contains(uri), "\(decoded.output)")
            // The uppercase form: a smaller code, decoding to the URI with its scheme and address in upper case.
            var upper = HTTPClientRequest(url: daemon.base + "/ui/requests/\(id)/qr.png?form=uppercase")
            upper.method = .GET
            let upperPNG = try await client.execute(upper, timeout: .seconds(30)).body.collect(upTo: 1 << 20)
            try Data(upperPNG.readableBytesView).write(to: URL(fileURLWithPath: "\(data)/qr-upper.png"))
            let upperDecoded = try await ProcessRunner.run(
                [zbar, "--raw", "-q", "\(data)/qr-upper.png"],
                scratch: data
            )
            let expected = RequestURI.uppercase(uri)
            #expect(expected.hasPrefix("BITCOIN:BC1") && expected != uri)
            #expect(
                upperDecoded.output.split(separator: "\n").map(String.init).contains(expected),
                "\(upperDecoded.output)"
            )
            let (smaller, exact) = (try QRCode(expected, segmented: true).width, try QRCode(uri).width)
            print("request QR: \(exact) modules a side for the URI, \(smaller) for its uppercase form (\(uri))")
            #expect(smaller < exact)
            let unknownForm = try await Self.send(client, daemon.base + "/ui/requests/\(id)/qr.svg?form=lower", .GET)
            #expect(unknownForm.status == 400 && unknownForm.body.contains("form must be uri or uppercase"))
            let missing = try await Self.send(client, daemon.base + "/ui/requests/req_nothing/qr.png", .GET)
            #expect(missing.status == 404)
        }
        #expect(status == 0)
    }

    /// Gap advice: once more addresses handed out in a row are unpaid than `gapWarn`, `requests create` warns on
    /// standard error and `check` says so (a wallet restored elsewhere scans only that far).
    @Test func moreUnpaidRequestAddressesThanGapWarnAreWarnedOf() async throws {
        let directory = try TemporaryDirectory("request-gap")
        defer { directory.remove() }
        let data = directory.path
        let json = try String(contentsOfFile: try Self.config(data), encoding: .utf8)
            .replacingOccurrences(of: #""requests": {}"#, with: #""requests": {"gapWarn": 2}"#)
        let config = "\(data)/gap.json"
        try json.write(toFile: config, atomically: true, encoding: .utf8)
        for expected in [false, false, true] {
            let made = try await WatcherProcess.run(["requests", "create", "shop", "--sat", "1000", "--config", config])
            #expect(made.status == 0, "\(made.stderr)")
            #expect(
                made.stderr.contains("more than 2 addresses handed out of wallet \"shop\" in a row are unpaid")
                    == expected
            )
        }
        let checked = try await WatcherProcess.run(["check", "--config", config])
        #expect(
            checked.stdout.contains("warning: more than 2 addresses handed out of wallet \"shop\""),
            "\(checked.stdout)"
        )
    }
}
