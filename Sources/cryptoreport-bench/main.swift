// Micro-benchmarks of the number paths, fast against Foundation's, on the figures of the built-in
// sample. Not a test: it prints timings and asserts nothing. `make bench` runs it, then the
// comparison with the pandas peer (../shared/tools/bench-vs-peer). `history-db` makes history
// databases for timing reports over long histories (HistoryDatabase.swift).
//
// A small hand-written timer rather than ordo-one/benchmark: that package needs tools version 6.1
// and a malloc interposer, and would add minutes to CI's fresh build for a handful of loops.
import CryptoReport
import Foundation

if CommandLine.arguments.dropFirst().first == "history-db" {
    try makeHistoryDatabase(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// `cryptoreport-bench data FILE [CURRENCY]`: the data side of a report on a ticker file (e.g.
/// one from synth-tickers.py) with the built-in ECB rates: decoding, then analysing, each the
/// best of five, so that it can be timed and profiled apart from rendering.
if CommandLine.arguments.dropFirst().first == "data", CommandLine.arguments.count >= 3 {
    let body = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[2]))
    let currency = CommandLine.arguments.count > 3 ? CommandLine.arguments[3] : "SEK"
    let rates = try ECBRatesParser().parseLatest(EmbeddedSample.rates)
    func best(_ name: String, _ body: () throws -> Void) rethrows {
        var times: [Double] = []
        // The thread's CPU time, not the clock's: the machine is shared.
        func cpu() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
        }
        for _ in 0..<5 {
            let start = cpu()
            try body()
            times.append(cpu() - start)
        }
        print(String(format: "%-40@ %8.1f ms CPU (best of 5)", name as NSString, times.min() ?? 0))
    }
    var decoded: TickerDecoder.Result?
    try best("decode \(body.count) bytes") { decoded = try TickerDecoder().decode(body) }
    guard let decoded else { exit(1) }
    let spec = ReportSpec(currency: CurrencyCode(currency) ?? .usd, selection: Selection(markets: .all))
    let payload = FetchedPayload(source: .tickers, location: .file(CommandLine.arguments[2]), data: body, fetchedAt: Date(), origin: .file)
    let ratesPayload = FetchedPayload(source: .rates, location: .embedded(name: "rates"), data: EmbeddedSample.rates, fetchedAt: Date(), origin: .sample)
    try best("build (\(decoded.tickers.count) tickers)") {
        blackHole(
            try ReportBuilder(spec: spec, ratesAgeLimit: nil, generatedAt: Date()).build(
                tickers: payload, decoded: decoded, rates: ratesPayload, exchangeRates: rates))
    }
    exit(0)
}

/// Best of `rounds` runs of `body`, in nanoseconds per item.
func measure(_ name: String, items: Int, rounds: Int = 5, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start))
    }
    let perItem = best / Double(items)
    print(String(format: "%-44@ %10.1f ns/item", name as NSString, perItem))
    return perItem
}

func compare(_ name: String, items: Int, fast: () -> Void, reference: () -> Void) {
    let mine = measure("\(name) (fast)", items: items, fast)
    let theirs = measure("\(name) (Foundation)", items: items, reference)
    print(String(format: "%-44@ %10.1f×", "  speed-up" as NSString, theirs / mine))
}

let decoded = try TickerDecoder().decode(EmbeddedSample.tickers)
let rate = Decimal(string: "10.7235", locale: Locale(identifier: "en_US_POSIX")) ?? 1
var figures: [Decimal] = []
for ticker in decoded.tickers {
    figures += [ticker.last * rate, ticker.last]
    figures += [ticker.open, ticker.high, ticker.low, ticker.bid, ticker.ask, ticker.volume].compactMap { $0 }
    if let open = ticker.open, open > 0 { figures.append((ticker.last - open) / open * 100) }
}
print("\(figures.count) figures from the \(decoded.tickers.count) tickers of the built-in sample, ×10.7235 where a price")

compare(
    "Decimal → plain text", items: figures.count, fast: { for value in figures { blackHole(DecimalParts.plainText(value)) } },
    reference: { for value in figures { blackHole(value.description) } })
compare(
    "PlainNumber.format (15 digits)", items: figures.count, fast: { for value in figures { blackHole(PlainNumber.format(value)) } },
    reference: {
        for value in figures {
            var input = value
            var rounded = Decimal()
            NSDecimalRound(&rounded, &input, 14 - PlainNumber.magnitude(of: value), .plain)
            blackHole(rounded.description)
        }
    })
for (currency, locale) in [("SEK", "sv_SE"), ("USD", "en_US"), ("INR", "en_IN")] {
    let numbers = PeopleNumberFormatter(currency: currency, locale: Locale(identifier: locale))
    let reference = numbers.referenceFormatter()
    compare(
        "money, \(locale)", items: figures.count, fast: { for value in figures { blackHole(numbers.money(value)) } },
        reference: { for value in figures { blackHole(reference.money(value)) } })
    compare(
        "percent, \(locale)", items: figures.count, fast: { for value in figures { blackHole(numbers.percent(value)) } },
        reference: { for value in figures { blackHole(reference.percent(value)) } })
}
// The arithmetic of the figures (FastDecimal, Foundation's results byte for byte) against
// Foundation's operators: the converted price (a 38-digit rate times a price), the change.
let rates = try ECBRatesParser().parseLatest(EmbeddedSample.rates)
let sek = try CurrencyConverter(rates: rates, target: "SEK").quoteRates(for: decoded.tickers)
let priced = decoded.tickers.compactMap { ticker in sek.rates[ticker.quoteAsset.lowercased()].map { (ticker, $0.rate) } }
compare(
    "price × rate", items: priced.count, fast: { for (ticker, rate) in priced { blackHole(FastDecimal.multiply(ticker.last, rate)) } },
    reference: { for (ticker, rate) in priced { blackHole(ticker.last * rate) } })
let opened = decoded.tickers.compactMap { ticker in ticker.open.map { (ticker.last, $0) } }.filter { $0.1 > 0 }
compare(
    "(last − open) ÷ open × 100", items: opened.count,
    fast: { for (last, open) in opened { blackHole(FastDecimal.multiply(FastDecimal.divide(FastDecimal.subtract(last, open), open), 100)) } },
    reference: { for (last, open) in opened { blackHole((last - open) / open * 100) } })
compare(
    "MarketAnalyser.row (every figure)", items: priced.count,
    fast: { for (ticker, rate) in priced { blackHole(MarketAnalyser().row(ticker, rate: rate, currency: "SEK")) } },
    reference: { for (ticker, rate) in priced { blackHole(MarketAnalyser().foundationRow(ticker, rate: rate, currency: "SEK")) } })
let volumes = priced.compactMap { ticker, rate in ticker.volume.map { $0 * ticker.last * rate } }
compare(
    "sort by volume value", items: volumes.count, fast: { blackHole(volumes.map(DecimalOrder.init).sorted()) },
    reference: { blackHole(volumes.sorted()) })
let texts = figures.map { DecimalParts.plainText($0) }
_ = measure("DecimalText.parse", items: texts.count) { for text in texts { blackHole(DecimalText.parse(text)) } }
let body = EmbeddedSample.tickers
_ = measure("TickerDecoder.decode (450 tickers)", items: decoded.tickers.count, rounds: 10) { blackHole(try? TickerDecoder().decode(body)) }
