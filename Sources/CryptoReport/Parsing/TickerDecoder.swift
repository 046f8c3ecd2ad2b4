package import Foundation

/// Decodes the WazirX `/sapi/v1/tickers/24hr` body into validated tickers.
///
/// One bad row never sinks the report: it is skipped with a diagnostic. Only a body that is not a
/// ticker array at all, or one without a single usable row, is an error.
package struct TickerDecoder: Sendable {
    /// The feed the rows come from, which every diagnostic and error names: WazirX's tickers,
    /// unless another exchange's decoder (`BinanceTickerDecoder`) judges its rows here.
    var source: DataSource = .tickers
    /// What the feed calls the time read as `at`, for the note on one that is not a time.
    var timeKey = "at"

    package init() {}

    init(source: DataSource, timeKey: String) {
        self.source = source
        self.timeKey = timeKey
    }

    package struct Result: Sendable {
        package var tickers: [Ticker]
        /// Rows in the body, usable or not.
        package var received: Int
        package var diagnostics: [Diagnostic]
        /// Rows of markets the exchange lists as not trading (Binance's `BREAK`, `HALT`, …), left
        /// out: said only with `--verbose`, not warned of, since such markets stay listed for months.
        package var notTrading: [Diagnostic] = []
    }

    /// Each row of the body judged in the body's order: the first ticker of a symbol is kept, and
    /// the notes come in order. The feed's usual shape is read straight from its bytes
    /// (`TickerScanner`); anything else by JSONDecoder, with the same result.
    package func decode(_ data: Data) throws(DataError) -> Result {
        if let scanned = scan(data) {
            guard !scanned.tickers.isEmpty else {
                throw .noValidTickers(source: source, received: scanned.received, firstProblem: scanned.diagnostics.first.flatMap(\.decoderNote))
            }
            return scanned
        }
        return try decodeWithJSONDecoder(data)
    }

    /// `decode` by JSONDecoder alone, whatever the body's shape.
    func decodeWithJSONDecoder(_ data: Data) throws(DataError) -> Result {
        var judged = Judged(source: source)
        let rows = try decodeRows(data)
        for (index, row) in rows.enumerated() { judged.add(validate(row.fields, index: index), index: index) }
        guard !judged.tickers.isEmpty else {
            throw .noValidTickers(source: source, received: rows.count, firstProblem: judged.diagnostics.first.flatMap(\.decoderNote))
        }
        return Result(tickers: judged.tickers, received: rows.count, diagnostics: judged.diagnostics)
    }

    /// The body as `TickerScanner` reads it; `nil` when JSONDecoder must read it.
    func scan(_ data: Data) -> Result? {
        var judged = Judged(source: source)
        var index = 0
        let received = TickerScanner.forEachRow(data) { row in
            judged.add(validate(row, index: index), index: index)
            index += 1
        }
        return received.map { Result(tickers: judged.tickers, received: $0, diagnostics: judged.diagnostics) }
    }

    /// The rows judged so far.
    struct Judged {
        let source: DataSource
        var tickers: [Ticker] = []
        var diagnostics: [Diagnostic] = []
        var seen = Set<String>()

        mutating func add(_ judgement: Swift.Result<Validated, Problem>, index: Int) {
            switch judgement {
            case let .success(validated):
                diagnostics += validated.notes
                if seen.insert(TickerDecoder.symbolKey(validated.ticker.symbol)).inserted {
                    tickers.append(validated.ticker)
                } else {
                    diagnostics.append(TickerDecoder.repeated(validated.ticker.symbol, index: index, source: source))
                }
            case let .failure(problem):
                diagnostics.append(problem.diagnostic)
            }
        }
    }

    /// The feed's symbols are lower case already: no new string for them.
    static func symbolKey(_ symbol: String) -> String {
        symbol.utf8.allSatisfy({ $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) ? symbol : symbol.lowercased()
    }

    static func repeated(_ symbol: String, index: Int, source: DataSource) -> Diagnostic {
        Diagnostic(
            source, "skipped ticker #\(index + 1) (\(symbol)): the symbol appeared before; the first one is kept",
            group: "the symbol appeared before")
    }

    // MARK: - Body

    private static let expected = "a JSON array of tickers"
    static let maximumIdentifierLength = 40

    /// The body's rows as `Row` reads them (`RawTickerRow`: WazirX's keys).
    func decodeRows<Row: Decodable>(_ data: Data, as _: Row.Type = RawTickerRow.self) throws(DataError) -> [Row] {
        try Self.decodeJSON(data, as: [Row].self, source: source, expected: Self.expected)
    }

    /// An exchange's JSON body as `Body`: empty, an HTML page, other markup, an API error body
    /// and JSON of another shape are each their own `DataError`, naming `source` and what was
    /// `expected`.
    static func decodeJSON<Body: Decodable>(_ data: Data, as _: Body.Type, source: DataSource, expected: String) throws(DataError) -> Body {
        guard let first = data.first(where: { !isWhitespace($0) }) else { throw .empty(source: source) }
        if first == UInt8(ascii: "<") {
            let head = String(decoding: data.prefix(512), as: UTF8.self).lowercased()
            if head.contains("<html") || head.contains("<!doctype html") {
                throw .htmlInsteadOfData(source: source, expected: expected)
            }
            throw .malformed(source: source, expected: expected, detail: "got XML or other markup")
        }
        let decoder = JSONDecoder()
        do {
            return try decoder.decode(Body.self, from: data)
        } catch {
            if let apiError = try? decoder.decode(APIErrorBody.self, from: data), let message = apiError.message {
                throw .apiError(source: source, code: apiError.code.map { oneLine($0, limit: 20) }, message: oneLine(message, limit: 200))
            }
            throw .malformed(source: source, expected: expected, detail: describe(error, first: first))
        }
    }

    private static func describe(_ error: any Error, first: UInt8) -> String {
        switch error {
        case DecodingError.typeMismatch, DecodingError.valueNotFound:
            switch first {
            case UInt8(ascii: "{"): return "got a JSON object"
            case UInt8(ascii: "["): return "got a JSON array"
            case UInt8(ascii: "\""): return "got a JSON string"
            default: return "got a single JSON value"
            }
        case DecodingError.dataCorrupted:
            return "the JSON is malformed, truncated or not UTF-8"
        default:
            return "the JSON cannot be read"
        }
    }

    /// Text from the server, made safe for a one-line message: control characters become spaces,
    /// runs of blanks one space, and the length is capped. Messages often quote it, so nothing
    /// in it may join a quote.
    static func oneLine(_ text: String, limit: Int) -> String {
        let cleaned = SourceText.printable(text, quoted: true)
        let words = cleaned.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        if words.isEmpty { return "(no message)" }
        return words.count > limit ? String(words.prefix(limit)) + "…" : words
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    // MARK: - Rows

    struct Problem: Error {
        var diagnostic: Diagnostic
    }

    struct Validated {
        var ticker: Ticker
        var notes: [Diagnostic]
    }

    func validate<Fields: TickerFields>(_ row: Fields?, index: Int) -> Swift.Result<Validated, Problem> {
        // Only a skipped row is named, so a usable row makes no name strings.
        var position: String { "ticker #\(index + 1)" }
        guard let fields = row else {
            return .failure(Problem(diagnostic: Diagnostic(source, "skipped \(position): not a JSON object", group: "not a JSON object")))
        }
        // Identifiers end up in file rows, table cells and log lines: a control character could
        // forge a log line, and no real symbol is long.
        func identifier(_ key: RawTickerRow.Key) -> String? {
            guard let raw = fields.text(key) else { return nil }
            // Visible ASCII only, as every real identifier is: nothing to trim, one character
            // per byte, nothing unsafe, so the general checks below are for the rare rest.
            if raw.utf8.count <= Self.maximumIdentifierLength, !raw.utf8.isEmpty,
                raw.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
            {
                return raw
            }
            let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty, text.count <= Self.maximumIdentifierLength, !SourceText.containsUnsafe(text) else { return nil }
            return text
        }
        guard let symbol = identifier(.symbol) else {
            return .failure(
                Problem(
                    diagnostic: Diagnostic(
                        source, "skipped \(position): no symbol, or not a plain string of up to \(Self.maximumIdentifierLength) characters",
                        group: "no usable symbol")))
        }
        var name: String { "\(position) (\(symbol))" }
        guard let base = identifier(.baseAsset), let quote = identifier(.quoteAsset) else {
            return .failure(
                Problem(diagnostic: Diagnostic(source, "skipped \(name): no usable baseAsset or quoteAsset", group: "no usable baseAsset or quoteAsset")))
        }
        guard fields.has(.lastPrice) else {
            return .failure(Problem(diagnostic: Diagnostic(source, "skipped \(name): no lastPrice", group: "no lastPrice")))
        }
        guard let last = fields.decimal(.lastPrice), DecimalParts.isPositive(last) else {
            let quoted = fields.scalar(.lastPrice)?.quoted ?? ""
            let reason = fields.scalar(.lastPrice)?.refusal.map { "is \($0)" } ?? "is not a positive number"
            return .failure(
                Problem(diagnostic: Diagnostic(source, "skipped \(name): lastPrice \(quoted) \(reason)", group: "lastPrice not a positive number")))
        }
        var notes: [Diagnostic] = []
        func amount(_ field: RawTickerRow.Key) -> Decimal? {
            guard fields.has(field), !fields.isNull(field) else { return nil }
            if let value = fields.decimal(field), DecimalParts.isNonNegative(value) { return value }
            let key = RawTickerRow.keys[field.rawValue]
            let quoted = fields.scalar(field)?.quoted ?? ""
            let reason = fields.scalar(field)?.refusal.map { "is \($0)" } ?? "is not a non-negative number"
            notes.append(Diagnostic(source, "\(symbol): \(key) \(quoted) \(reason); left empty", group: "\(key) left empty"))
            return nil
        }
        let ticker = Ticker(
            symbol: symbol, baseAsset: base, quoteAsset: quote,
            open: amount(.openPrice), low: amount(.lowPrice), high: amount(.highPrice), last: last,
            volume: amount(.volume), bid: amount(.bidPrice), ask: amount(.askPrice),
            updatedAt: timestamp(fields, symbol: symbol, notes: &notes))
        return .success(Validated(ticker: ticker, notes: notes))
    }

    static let earliestMilliseconds: Decimal = 1_230_940_800_000

    /// `at` is milliseconds since the epoch, sent as a number or as a string.
    private func timestamp<Fields: TickerFields>(_ fields: Fields, symbol: String, notes: inout [Diagnostic]) -> Date? {
        guard fields.has(.at), !fields.isNull(.at) else { return nil }
        let value = fields.decimal(.at)
        if let date = Self.integerTimestamp(value) { return date }
        // From Bitcoin's first block (2009-01-03) to the year 9999: no market traded earlier, and
        // an earlier value is a zero, or seconds sent for milliseconds, which would date the report 1970.
        guard let milliseconds = value, milliseconds >= Self.earliestMilliseconds, milliseconds < 253_402_300_800_000 else {
            let quoted = fields.scalar(.at)?.quoted ?? ""
            notes.append(Diagnostic(source, "\(symbol): \(timeKey) \(quoted) is not a time in milliseconds; left empty", group: "\(timeKey) left empty"))
            return nil
        }
        let seconds = NSDecimalNumber(decimal: milliseconds / 1000).doubleValue
        return Date(timeIntervalSince1970: seconds)
    }

    /// The usual `at`, whole milliseconds in range, read without the costly `Decimal` division.
    /// The same `Double` as above: that path divides a mantissa below 2^53 (exact as
    /// a `Double`) by 10 once per decimal place; a test compares the two. `nil`: take that path.
    static func integerTimestamp(_ field: JSONScalar) -> Date? {
        integerTimestamp(field.decimal)
    }

    static func integerTimestamp(_ value: Decimal?) -> Date? {
        guard let milliseconds = value, let parts = DecimalParts(milliseconds), !parts.isNegative,
            (0...12).contains(parts.exponent), parts.high == 0
        else { return nil }
        // A Decimal made from an integer keeps its trailing zeros in the exponent.
        let (whole, overflow) = parts.low.multipliedReportingOverflow(by: DecimalParts.powersOfTen[parts.exponent])
        guard !overflow, whole >= 1_230_940_800_000, whole < 253_402_300_800_000 else { return nil }
        var seconds = Double(whole)
        for _ in 0..<3 { seconds /= 10 }
        return Date(timeIntervalSince1970: seconds)
    }
}
