import Foundation

/// libFuzzer entry point for `KlinesDecoder`, which reads `/sapi/v1/klines` for `backfill`: built by
/// Scripts/fuzz.sh with `-sanitize=fuzzer,address` together with the library files it needs.
///
/// Besides memory safety the harness checks what the history store relies on, and a broken
/// invariant is a trap, so it is a finding: every close is positive and every other amount
/// non-negative, all within the `DecimalText` bounds; every open time is a real instant between
/// 1970 and 9999; every error message is one line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let klines: [Kline]
    do {
        klines = try KlinesDecoder().decode(data, symbol: "btcusdt").klines
    } catch {
        check(isOneLine(error.errorDescription ?? ""), "multi-line error: \(error)")
        return 0
    }
    for kline in klines {
        let seconds = kline.openTime.timeIntervalSince1970
        check(seconds.isFinite && seconds >= 0 && seconds < 253_402_300_800, "open time \(seconds)")
        check(kline.close > 0 && DecimalText.inRange(kline.close), "close \(kline.close)")
        for value in [kline.open, kline.high, kline.low, kline.volume].compactMap({ $0 }) {
            check(value >= 0 && DecimalText.inRange(value), "amount \(value)")
        }
    }
    return 0
}
