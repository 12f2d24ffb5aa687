extension ConfigErrorTests {
    /// Bad watches and sinks, secrets in them included.
    static let watchAndSinkCases: [Case] = [
        Case(
            name: "watch type",
            json: watch(#"{"id": "w", "type": "mempool", "providers": ["bb"]}"#),
            path: "watches[0].type",
            message: #"expected one of "blocks", "address", "wallet", "tx", "price", got a string "mempool""#
        ),
        Case(
            name: "watch references unknown provider",
            json: watch(#"{"id": "w", "type": "blocks", "providers": ["bbb"]}"#),
            path: "watches[0].providers[0]",
            message: #"no provider has id "bbb"; did you mean "bb"?"#
        ),
        Case(
            name: "price watch on chain-only provider",
            json: config(
                providers: #"[{"id": "ra", "type": "rawaddr"}]"#,
                watches: #"[{"id": "p", "type": "price", "providers": ["ra"]}]"#
            ),
            path: "watches[0].providers[0]",
            message: #"provider "ra" (rawaddr) does not serve prices"#
        ),
        Case(
            name: "block watch on price feed",
            json: watch(#"{"id": "w", "type": "blocks", "providers": ["cb"]}"#),
            path: "watches[0].providers[0]",
            message: #"provider "cb" (json-price) does not serve chain data"#
        ),
        Case(
            name: "invalid address",
            json: watch(
                #"{"id": "w", "type": "address", "providers": ["bb"], "addresses": ["1BoatSLRHtKNngkdXEeobR76b53LETtpyU"]}"#
            ),
            path: "watches[0].addresses[0]",
            message: #"invalid address "1BoatSLRHtKNngkdXEeobR76b53LETtpyU": bad base58check checksum"#
        ),
        Case(
            name: "address watch without addresses",
            json: watch(#"{"id": "w", "type": "address", "providers": ["bb"]}"#),
            path: "watches[0].addresses",
            message: #"missing required key "addresses" (array: Addresses or bitcoin: URIs.)"#
        ),
        Case(
            name: "field of another watch type",
            json: watch(#"{"id": "w", "type": "blocks", "providers": ["bb"], "txid": "00"}"#),
            path: "watches[0].txid",
            message: #""txid" belongs to tx watches, not blocks"#
        ),
        Case(
            name: "bad txid",
            json: watch(#"{"id": "t", "type": "tx", "providers": ["bb"], "txid": "xyz"}"#),
            path: "watches[0].txid",
            message: #"expected a 64-hex-digit txid, got "xyz""#
        ),
        Case(
            name: "confirmation threshold",
            json: watch(
                #"{"id": "t", "type": "address", "providers": ["bb"], "addresses": ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"], "confirmations": [0]}"#
            ),
            path: "watches[0].confirmations[0]",
            message: "expected a confirmation count from 1 to 10000, got 0"
        ),
        Case(
            name: "every too short",
            json: watch(#"{"id": "w", "type": "blocks", "providers": ["bb"], "every": "10ms"}"#),
            path: "watches[0].every",
            message: #"expected a duration of at least 1s, got "10ms""#
        ),
        Case(
            name: "changePercent without window",
            json: watch(#"{"id": "p", "type": "price", "providers": ["cb"], "changePercent": 5}"#),
            path: "watches[0].window",
            message: #"changePercent needs a window, e.g. "1h""#
        ),
        Case(
            name: "price level not a number",
            json: watch(#"{"id": "p", "type": "price", "providers": ["cb"], "above": ["100k"]}"#),
            path: "watches[0].above[0]",
            message: "expected a number, got a string"
        ),
        Case(
            name: "sink glob",
            json: config(sinks: #"[{"id": "out", "type": "stdout", "events": ["address..*"]}]"#),
            path: "sinks[0].events[0]",
            message: #"expected an event type or glob such as "address.*", got "address..*""#
        ),
        Case(
            name: "unknown sink type",
            json: config(sinks: #"[{"id": "q", "type": "kafka"}]"#),
            path: "sinks[0].type",
            message: #"unknown sink type "kafka"; known types: file, postgres, stdout, webhook"#
        ),
        Case(
            name: "file sink fsync",
            json: config(
                sinks: #"[{"id": "f", "type": "file", "options": {"path": "e.jsonl", "fsync": "sometimes"}}]"#
            ),
            path: "sinks[0].options.fsync",
            message: #"expected "always" or a duration such as "1s", got "sometimes""#
        ),
        Case(
            name: "stdout format",
            json: config(sinks: #"[{"id": "out", "type": "stdout", "options": {"format": "xml"}}]"#),
            path: "sinks[0].options.format",
            message: #"expected one of "pretty", "jsonl", got a string "xml""#
        ),
        Case(
            name: "missing environment variable",
            json: config(
                sinks:
                    #"[{"id": "h", "type": "webhook", "options": {"url": "https://h.example", "secret": "${WATCHER_TEST_UNSET}"}}]"#
            ),
            path: "sinks[0].options.secret",
            message: "environment variable WATCHER_TEST_UNSET is not set (referenced as ${WATCHER_TEST_UNSET})"
        ),
        Case(
            name: "malformed secret",
            json: config(
                sinks:
                    #"[{"id": "h", "type": "webhook", "options": {"url": "https://h.example", "secret": "${WATCHER_TEST_BAD_SECRET}"}}]"#
            ),
            path: "sinks[0].options.secret",
            message: "expected a secret of the form whsec_<base64>"
        ),
        Case(
            name: "more websocket connections than the cap",
            json: config(
                providers:
                    #"[{"id": "bb", "type": "blockbook", "options": {"url": "https://bb.example", "websocket": true, "websocketConnections": 65}}]"#
            ),
            path: "providers[0].options.websocketConnections",
            message: "expected an integer from 1 to 64, got 65"
        ),
        Case(
            name: "header name that is not a token",
            json: config(
                providers:
                    #"[{"id": "cd", "type": "coindesk", "options": {"headers": {"X Api Key": "abc"}}}]"#
            ),
            path: "providers[0].options.headers.X Api Key",
            message: "not a valid header name (letters, digits and !#$%&'*+-.^_`|~)"
        ),
        Case(
            name: "header value from the environment with a line break",
            json: config(
                sinks:
                    #"[{"id": "h", "type": "webhook", "options": {"url": "https://h.example", "headers": {"X-Token": "${WATCHER_TEST_CRLF}"}}}]"#
            ),
            path: "sinks[0].options.headers.X-Token",
            message: "the value holds a line break or another control character"
        ),
    ]
}
