import Foundation

/// libFuzzer entry point for `ECBHistoryReader`, the streaming reader behind `backfill`: built by
/// Scripts/fuzz.sh with `-sanitize=fuzzer,address` and linked against the system libxml2.
///
/// Besides memory safety it is a differential harness: the streaming reader and the tree parser
/// (`ECBRatesParser`, which the daily report uses) are two readings of the same format, so
/// whatever the reader accepts the tree parser must accept too, with the same days and the same
/// rates. A document one of them refuses and the other turns into rates (a DTD in UTF-16 once
/// did exactly that) is a trap, so it is a finding. Errors must be one line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let tree = Result { () throws(DataError) in try ECBRatesParser().parseDays(data) }
    let stream: [ExchangeRates]
    do {
        stream = try ECBHistoryReader().read(data)
    } catch {
        check(isOneLine(error.errorDescription ?? ""), "multi-line error: \(error)")
        if case let .success(days) = tree { check(days.isEmpty, "the tree parser read \(days.count) day(s); the reader refused: \(error)") }
        return 0
    }
    switch tree {
    case let .success(days): check(days == stream, "the reader and the tree parser read different rates")
    case let .failure(error): check(false, "the tree parser refused (\(error)); the reader read \(stream.count) day(s)")
    }
    return 0
}
