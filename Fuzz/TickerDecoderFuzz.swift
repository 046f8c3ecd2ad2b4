import Foundation

/// libFuzzer entry point for `TickerDecoder`: built by Scripts/fuzz.sh with `-sanitize=fuzzer,address`
/// together with the few library files the decoder needs (see the script).
///
/// A thrown `DataError` is the decoder doing its job on bad input; only a crash, a trap or a
/// sanitizer report counts as a finding. Besides memory safety, the harness checks what the rest
/// of the pipeline relies on (the same invariants as the bad-input corpus tests), and a broken
/// one is a trap, so it is a finding too:
/// - every amount is non-negative and zero or between 1e-20 and 1e20 (`DecimalText.inRange`),
///   which keeps the report's products of up to four amounts clear of `Decimal`'s traps;
///   `last` is positive;
/// - identifiers are non-empty, at most 40 characters, without control characters; no symbol
///   is kept twice;
/// - every warning and every error message is one line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let result: TickerDecoder.Result
    do {
        result = try TickerDecoder().decode(data)
    } catch {
        check(isOneLine(error.errorDescription ?? ""), "multi-line error: \(error)")
        return 0
    }
    check(!result.tickers.isEmpty && result.received >= result.tickers.count, "ticker counts")
    var symbols = Set<String>()
    var length = 0
    for ticker in result.tickers {
        for identifier in [ticker.symbol, ticker.baseAsset, ticker.quoteAsset] {
            check(
                !identifier.isEmpty && identifier.count <= 40
                    && !SourceText.containsUnsafe(identifier),
                "identifier \(identifier.debugDescription)")
        }
        check(symbols.insert(ticker.symbol.lowercased()).inserted, "\(ticker.symbol) kept twice")
        check(ticker.last > 0 && DecimalText.inRange(ticker.last), "\(ticker.symbol): last \(ticker.last)")
        for amount in [ticker.open, ticker.low, ticker.high, ticker.volume, ticker.bid, ticker.ask] {
            guard let amount else { continue }
            check(amount >= 0 && DecimalText.inRange(amount), "\(ticker.symbol): amount \(amount)")
        }
        // The report's own arithmetic, with a rate at the bounds: volume value and 24 h change.
        let value = (ticker.volume ?? 1) * ticker.last * ticker.last * DecimalText.smallest
        let change = ticker.open.map { $0 > 0 ? (ticker.last - $0) / $0 * 100 : 0 } ?? 0
        length &+= ticker.symbol.utf8.count &+ (value.isNaN ? 1 : 0) &+ (change.isNaN ? 1 : 0)
    }
    // The decoder's notes are its own sentences (Rendering words the other kinds, and is not built here).
    for diagnostic in result.diagnostics {
        let note = diagnostic.decoderNote ?? ""
        check(isOneLine(note) && !SourceText.containsUnsafe(note), "multi-line or unsafe warning: \(diagnostic)")
        length &+= note.utf8.count
    }
    // Keeps the work above from being optimised away.
    if length == Int.min { print(length) }
    return 0
}

