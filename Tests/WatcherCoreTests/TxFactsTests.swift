import Testing
import WatcherCore

@Suite struct TxFactsTests {
    @Test(arguments: [
        (Int64(1_000), 141, "7.09"),  // 7.0921…
        (Int64(225), 2, "112.50"),
        (Int64(1), 8, "0.12"),  // 0.125: half to even
        (Int64(3), 8, "0.38"),  // 0.375: half to even
        (Int64(0), 110, "0.00"),
        (Int64(2_100_000_000_000_000), 1, "2100000000000000.00"),
        (Int64(1_001), 100, "10.01"),
    ])
    func feeRateIsExactToTheHundredth(fee: Int64, vsize: Int, expected: String) {
        #expect(TxFacts(feeSat: fee, vsize: vsize).feeRate == expected)
    }

    @Test func feeRateNeedsTheFeeAndASize() {
        #expect(TxFacts(feeSat: 500).feeRate == nil)
        #expect(TxFacts(vsize: 141).feeRate == nil)
        #expect(TxFacts(feeSat: 500, vsize: 0).feeRate == nil)
        #expect(TxFacts(feeSat: -1, vsize: 10).feeRate == nil)
    }

    @Test func rbfIsAnyInputBelowFFFFFFFE() {
        #expect(TxFacts(sequences: [0xffff_ffff, 0xffff_fffd]).signalsRBF == true)
        #expect(TxFacts(sequences: [0]).signalsRBF == true)
        #expect(TxFacts(sequences: [0xffff_fffe, 0xffff_ffff]).signalsRBF == false)
        #expect(TxFacts().signalsRBF == nil)
    }
}
