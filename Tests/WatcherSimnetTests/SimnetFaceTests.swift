import Testing

@testable import WatcherSimnet

/// The faces: one per family, each owning the paths its family is found by, and each path owned by one face.
struct SimnetFaceTests {
    @Test func everyFamilyHasExactlyOneFace() {
        for family in ProviderFamily.allCases {
            #expect(SimnetFaces.all.filter { $0.family == family }.count == 1, "\(family)")
        }
        #expect(SimnetFaces.all.count == ProviderFamily.allCases.count)
    }

    @Test(arguments: [
        ("/api/v2/address/bc1q", ProviderFamily.blockbook, "/api/v2/address"),
        ("/api", .blockbook, "/api/"),
        ("/rawaddr/1abc", .rawaddr, "/rawaddr"),
        ("/latestblock", .rawaddr, "/latestblock"),
        ("/v1/bpi/currentprice/EUR.json", .coindesk, "/v1/bpi/currentprice"),
        ("/v2/prices/BTC-USD/spot", .coinbase, "/v2/prices/spot"),
        ("/", .bitcoind, "/"),
    ])
    func aPathIsOwnedByOneFaceAndCountedUnderItsEndpoint(path: String, family: ProviderFamily, endpoint: String) {
        #expect(ProviderFamily(path: path) == family)
        #expect(SimnetFaces.all.filter { $0.owns(path) }.count == 1)
        #expect(ProviderFamily.endpoint(for: path) == endpoint)
    }

    @Test func pathsOutsideEveryFaceHaveNoFamily() {
        #expect(ProviderFamily(path: "/control/mine") == nil)
        #expect(ProviderFamily(path: "/websocket") == nil)
        #expect(ProviderFamily.endpoint(for: "/control/mine") == "/control/mine")
    }
}
