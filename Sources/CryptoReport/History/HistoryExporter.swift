import Foundation

/// One asset's stored series, converted at each day's own rates: `cryptoreport history`.
public struct HistoryExporter: Sendable {
    public var store: HistoryStore

    public init(store: HistoryStore) {
        self.store = store
    }

    public struct Point: Sendable, Equatable {
        public var time: Date
        public var kind: Snapshot.Kind
        public var row: MarketRow
        public var ratesDate: String
    }

    /// Every stored run of the last `days` days up to `now` that holds the market, oldest first.
    /// `symbol` is a base asset (its primary market in each run) or an exact market symbol.
    /// No run in the window is an empty series; runs none of which has rates for `currency`, or
    /// none of which holds the market, are an error saying so, not an empty export.
    public func series(symbol: String, currency: String, days: Int, now: Date) throws(HistoryError) -> [Point] {
        let wanted = symbol.lowercased()
        let runs = try store.runs(in: now.addingTimeInterval(-Double(days) * 86400)...now)
        var points: [Point] = []
        var currencies = Set<String>()
        var convertible = false
        for run in runs {
            let snapshot = try store.snapshot(of: run)
            guard let rates = snapshot.rates else { continue }
            currencies.formUnion(rates.currencies)
            guard let converter = try? CurrencyConverter(rates: rates, target: currency),
                let quoteRates = try? converter.quoteRates(for: snapshot.tickers)
            else { continue }
            convertible = true
            let rows = MarketAnalyser().analyse(snapshot.tickers, rates: quoteRates, currency: converter.target).rows
            let exact = rows.first { $0.symbol.lowercased() == wanted }
            let primary = MarketSelector(Selection(markets: .primary, symbols: [wanted])).select(rows).first
            guard let row = exact ?? primary else { continue }
            points.append(Point(time: run.sourceTime, kind: run.kind, row: row, ratesDate: rates.date))
        }
        if !runs.isEmpty && !convertible && !currencies.isEmpty {
            throw .currencyNotRecorded(currency: currency, available: currencies.sorted())
        }
        if !runs.isEmpty && convertible && points.isEmpty {
            throw .noSeries(symbol: wanted, days: days, runs: runs.count)
        }
        return points
    }

    public static let csvColumns = [
        "time", "symbol", "currency", "price", "open", "high", "low", "change_pct", "volume", "volume_value", "fx_rate",
        "rates_date", "kind",
    ]

    public func csv(_ points: [Point]) -> String {
        var lines = [Self.csvColumns.joined(separator: ",")]
        for point in points {
            let row = point.row
            lines.append(
                [
                    ReportDates.iso8601(point.time), CSVRenderer.text(row.symbol), row.currency, PlainNumber.format(row.price),
                    PlainNumber.format(row.open), PlainNumber.format(row.high), PlainNumber.format(row.low),
                    PlainNumber.format(row.changePercent), PlainNumber.format(row.volume), PlainNumber.format(row.volumeValue),
                    PlainNumber.format(row.fxRate), point.ratesDate, point.kind.rawValue,
                ].joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    public func json(_ points: [Point], symbol: String, currency: String) -> String {
        let items: [[String: String?]] = points.map { point in
            [
                "time": ReportDates.iso8601(point.time), "symbol": point.row.symbol, "price": point.row.price.description,
                "open": point.row.open?.description, "high": point.row.high?.description, "low": point.row.low?.description,
                "change_pct": point.row.changePercent?.description, "volume": point.row.volume?.description,
                "volume_value": point.row.volumeValue?.description, "fx_rate": point.row.fxRate.description, "rates_date": point.ratesDate, "kind": point.kind.rawValue,
            ]
        }
        let document: [String: Any] = [
            "symbol": symbol, "currency": currency,
            "points": items.map { $0.mapValues { $0 as Any? ?? NSNull() } },
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    public func markdown(_ points: [Point], symbol: String, currency: String, locale: Locale) -> String {
        let numbers = PeopleNumberFormatter(currency: currency, locale: locale)
        let escape = MarkdownContentType()
        var lines = [
            "# \(escape.escapeText(symbol.uppercased())) in \(currency)", "",
            "Trend: \(Sparkline.unicode(points.map(\.row.price)))", "",
            "| Time | Market | Price | 24h | Volume value | ECB rates | Source |", "|:---|:---|---:|---:|---:|:---|:---|",
        ]
        for point in points {
            lines.append(
                "| \(ReportDates.minute(point.time)) | \(escape.escapeText(point.row.symbol)) | \(numbers.money(point.row.price)) | \(numbers.percent(point.row.changePercent)) | \(numbers.money(point.row.volumeValue)) | \(point.ratesDate) | \(point.kind.rawValue) |"
            )
        }
        if points.isEmpty { lines.append("") ; lines.append("No stored runs hold this asset.") }
        return lines.joined(separator: "\n") + "\n"
    }
}
