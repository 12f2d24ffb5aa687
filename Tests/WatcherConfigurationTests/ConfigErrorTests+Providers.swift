extension ConfigErrorTests {
    /// Bad roots, storage sections and providers.
    static let rootStorageAndProviderCases: [Case] = [
        Case(
            name: "not JSON",
            json: "{\"storage\": ",
            path: "(root)",
            message: "invalid JSON at line 1, column 13: unexpected end of input"
        ),
        Case(name: "root not object", json: "[]", path: "(root)", message: "expected an object, got an array"),
        Case(
            name: "unknown root key",
            json: #"{"sink": []}"#,
            path: "sink",
            message: #"unknown key "sink"; did you mean "sinks"?"#
        ),
        Case(
            name: "storage typo",
            json: config(storage: #"{"pth": "x"}"#),
            path: "storage.pth",
            message: #"unknown key "pth"; did you mean "path"?"#
        ),
        Case(
            name: "storage durability",
            json: config(storage: #"{"durability": "sometimes"}"#),
            path: "storage.durability",
            message: #"expected one of "full", "nometasync", got a string "sometimes""#
        ),
        Case(
            name: "storage map size too small",
            json: config(storage: #"{"mapSize": 1024}"#),
            path: "storage.mapSize",
            message: "expected an integer from 1048576 to 1099511627776, got 1024"
        ),
        Case(
            name: "retention not a duration",
            json: config(storage: #"{"eventRetention": "a week"}"#),
            path: "storage.eventRetention",
            message: #"expected a duration such as "500ms", "30s", "5m" or "1h", got a string "a week""#
        ),
        Case(
            name: "providers not array",
            json: config(providers: "{}"),
            path: "providers",
            message: "expected an array, got an object"
        ),
        Case(
            name: "provider id missing",
            json: config(providers: #"[{"type": "blockbook", "options": {"url": "https://x.example"}}]"#),
            path: "providers[0].id",
            message: #"missing required key "id" (string: A unique id.)"#
        ),
        Case(
            name: "provider bad id",
            json: config(providers: #"[{"id": "b b", "type": "coindesk"}]"#),
            path: "providers[0].id",
            message: #"expected an id of 1 to 64 letters, digits, '-', '_' or '.', got "b b""#
        ),
        Case(
            name: "unknown provider type",
            json: config(providers: #"[{"id": "x", "type": "esplora"}]"#),
            path: "providers[0].type",
            message:
                #"unknown provider type "esplora"; known types: bitcoind, blockbook, coindesk, electrum, json-price, rawaddr"#
        ),
        Case(
            name: "provider type typo",
            json: config(providers: #"[{"id": "x", "type": "blockbok", "options": {"url": "https://x.example"}}]"#),
            path: "providers[0].type",
            message:
                #"unknown provider type "blockbok"; did you mean "blockbook"? Known types: bitcoind, blockbook, coindesk, electrum, json-price, rawaddr"#
        ),
        Case(
            name: "sink type used as provider",
            json: config(providers: #"[{"id": "x", "type": "stdout"}]"#),
            path: "providers[0].type",
            message:
                #"unknown provider type "stdout"; known types: bitcoind, blockbook, coindesk, electrum, json-price, rawaddr"#
        ),
        Case(
            name: "electrum pin without tls pin",
            json: config(
                providers:
                    #"[{"id": "el", "type": "electrum", "options": {"url": "ssl://el.example:50002", "tls": "pin"}}]"#
            ),
            path: "providers[0].options.tls",
            message: "tls: pin needs `pin`, the SHA-256 of the server's certificate (sha256/<base64>)"
        ),
        Case(
            name: "electrum bad pin",
            json: config(
                providers:
                    #"[{"id": "el", "type": "electrum", "options": {"url": "ssl://el.example:50002", "tls": "pin", "pin": "sha256/abc"}}]"#
            ),
            path: "providers[0].options.pin",
            message: "not a SHA-256 pin: write sha256/ and the 32-byte digest in base64 or hex"
        ),
        Case(
            name: "electrum tls over tcp",
            json: config(
                providers:
                    #"[{"id": "el", "type": "electrum", "options": {"url": "tcp://el.example:50001", "tls": "insecure"}}]"#
            ),
            path: "providers[0].options.tls",
            message: "only an ssl:// url uses TLS"
        ),
        Case(
            name: "ftp url",
            json: config(providers: #"[{"id": "cd", "type": "coindesk", "options": {"url": "ftp://x"}}]"#),
            path: "providers[0].options.url",
            message: #"expected an http(s) URL, got "ftp://x""#
        ),
        Case(
            name: "blockbook url missing",
            json: config(providers: #"[{"id": "bb", "type": "blockbook", "options": {}}]"#),
            path: "providers[0].options.url",
            message: #"missing required key "url" (url: Base URL of the Blockbook instance.)"#
        ),
        Case(
            name: "unknown option",
            json: config(providers: #"[{"id": "ra", "type": "rawaddr", "options": {"batchsize": 10}}]"#),
            path: "providers[0].options.batchsize",
            message: #"unknown key "batchsize"; did you mean "batchSize"?"#
        ),
        Case(
            name: "batch size out of range",
            json: config(providers: #"[{"id": "ra", "type": "rawaddr", "options": {"batchSize": 500}}]"#),
            path: "providers[0].options.batchSize",
            message: "expected an integer from 1 to 100, got 500"
        ),
        Case(
            name: "timeout wrong type",
            json: config(providers: #"[{"id": "cd", "type": "coindesk", "options": {"timeout": 10}}]"#),
            path: "providers[0].options.timeout",
            message: #"expected a duration such as "500ms", "30s", "5m" or "1h", got a number 10"#
        ),
        Case(
            name: "rate limit period",
            json: config(
                providers: #"[{"id": "cd", "type": "coindesk", "rateLimit": {"requests": 5, "per": "1 minute"}}]"#
            ),
            path: "providers[0].rateLimit.per",
            message: #"expected a duration such as "500ms", "30s", "5m" or "1h", got a string "1 minute""#
        ),
        Case(
            name: "rate limit unknown key",
            json: config(providers: #"[{"id": "cd", "type": "coindesk", "rateLimit": {"request": 5}}]"#),
            path: "providers[0].rateLimit.request",
            message: #"unknown key "request"; did you mean "requests"?"#
        ),
        Case(
            name: "duplicate provider id",
            json: config(providers: #"[{"id": "cd", "type": "coindesk"}, {"id": "cd", "type": "coindesk"}]"#),
            path: "providers[1].id",
            message: #"duplicate provider id "cd" (first used at providers[0])"#
        ),
        Case(
            name: "duplicate key",
            json: config(providers: #"[{"id": "cd", "type": "coindesk", "id": "cd2"}]"#),
            path: "providers[0].id",
            message: #"duplicate key "id""#
        ),
        Case(
            name: "json-price without preset needs url",
            json: config(providers: #"[{"id": "jp", "type": "json-price", "options": {"pricePath": "a.b"}}]"#),
            path: "providers[0].options.url",
            message: #"a feed without a preset needs "url""#
        ),
    ]
}
