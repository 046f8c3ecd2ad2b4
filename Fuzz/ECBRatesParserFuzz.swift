import Foundation

/// libFuzzer entry point for `ECBRatesParser`: built by Scripts/fuzz.sh with `-sanitize=fuzzer,address`
/// together with the few library files the parser needs, linked against the system libxml2.
///
/// A thrown `DataError` is the parser doing its job on bad input; only a crash, a trap or a
/// sanitizer report counts as a finding. Besides memory safety, the harness checks what the
/// converter relies on (the same invariants as the bad-input corpus tests), and a broken one is
/// a trap, so it is a finding too: dates are `YYYY-MM-DD`, newest first; currency codes are
/// three upper-case ASCII letters; every rate is positive and between 1e-20 and 1e20; every error
/// message is one line.
///
/// libxml2 itself is not instrumented, so coverage guides the fuzzer through our Swift code and the
/// C shim only; AddressSanitizer still checks every access our code makes to libxml2's memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let days: [ExchangeRates]
    do {
        days = try ECBRatesParser().parseDays(data)
    } catch {
        check(isOneLine(error.errorDescription ?? ""), "multi-line error: \(error)")
        return 0
    }
    var length = 0
    for (index, day) in days.enumerated() {
        check(day.date.utf8.count == 10, "date \(day.date.debugDescription)")
        if index > 0 { check(days[index - 1].date >= day.date, "days out of order") }
        for (code, rate) in day.perEuro {
            check(code.utf8.count == 3 && code.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }, "code \(code.debugDescription)")
            check(rate > 0 && DecimalText.inRange(rate), "\(code) \(rate)")
        }
        for (code, text) in day.invalid {
            check(code.utf8.count == 3 && isOneLine(text), "invalid \(code.debugDescription)")
        }
        // The converter's cross rates, both ways round.
        for code in day.currencies {
            length &+= ((try? day.rate(from: code, to: "EUR"))?.isNaN ?? true) ? 1 : 0
            length &+= ((try? day.rate(from: "EUR", to: code))?.isNaN ?? true) ? 1 : 0
        }
    }
    // Keeps the work above from being optimised away.
    if length == Int.min { print(length) }
    return 0
}
