import Foundation

/// The report as JSON: every number a full-precision decimal string, plus both sources' metadata.
package struct JSONRenderer: Sendable {
    package init() {}

    package func render(_ report: Report) throws -> String {
        var output = ReportBytes(reserving: 4096 + report.rows.count * 900)
        try write(report, to: &output)
        return output.text
    }

    /// The file's bytes into `output` (a staged file's pieces), market by market.
    func write(_ report: Report, to output: inout ReportBytes) throws {
        // JSONEncoder writes the document around the markets; the markets, nearly all of the
        // file, are written straight into bytes in the encoder's own layout (`MarketWriter`):
        // encoding them built a tree of every value first, the largest allocation of a
        // 100,000-market run and a tenth of its time.
        // Without its markets from the start: made and then dropped, they were half of the
        // renderer's time and a copy of every market's text.
        let document = Document(report, withMarkets: false)
        let skeleton = [UInt8](try Self.encode(document))
        let placeholder = Array("\n  \"markets\" : [\n\n  ]".utf8)
        guard !report.rows.isEmpty, let range = skeleton.firstRange(of: placeholder) else {
            output += [UInt8](try Self.encode(Document(report)))
            output += "\n"
            return
        }
        output.bytes.append(skeleton[..<range.lowerBound])
        output += "\n  \"markets\" : ["
        for (index, row) in report.rows.enumerated() {
            MarketWriter.append(row, last: index == report.rows.count - 1, to: &output.bytes)
            output.flushIfFull()
        }
        output += "\n  ]"
        output.bytes.append(skeleton[range.upperBound...])
        output += "\n"
    }

    static func encode(_ document: Document) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }

    /// One market as JSONEncoder lays it out with `.prettyPrinted, .sortedKeys,
    /// .withoutEscapingSlashes` at the depth of the `markets` array; a test compares the two.
    enum MarketWriter {
        /// A market's fields, in `Market`'s order; written sorted by key, as the encoder sorts.
        enum Field: CaseIterable {
            case symbol, baseAsset, quoteAsset, currency, price, open, high, low, bid, ask, changePercent
            case spread, spreadPercent, volume, volumeValue, fxRate, updatedAt, stale, trend

            var key: String {
                switch self {
                case .symbol: "symbol"
                case .baseAsset: "base_asset"
                case .quoteAsset: "quote_asset"
                case .currency: "currency"
                case .price: "price"
                case .open: "open"
                case .high: "high"
                case .low: "low"
                case .bid: "bid"
                case .ask: "ask"
                case .changePercent: "change_pct"
                case .spread: "spread"
                case .spreadPercent: "spread_pct"
                case .volume: "volume"
                case .volumeValue: "volume_value"
                case .fxRate: "fx_rate"
                case .updatedAt: "updated_at"
                case .stale: "stale"
                case .trend: "trend"
                }
            }

            /// Each field with the bytes that open it (`\n      "key" : `), in the file's order.
            static let sorted: [(field: Field, opening: [UInt8])] = allCases.sorted { $0.key < $1.key }.map {
                ($0, Array("\n      \"\($0.key)\" : ".utf8))
            }
        }

        /// The bytes `JSONEncoder` writes for `Market(row)`, written from the row without a
        /// `Market` or a `String` per figure (`NumberReferenceTests` compares the two).
        static func append<Sink: ByteSink & ~Copyable>(_ row: MarketRow, last: Bool, to bytes: inout Sink) {
            bytes += "\n    {"
            var first = true
            for (field, opening) in Field.sorted {
                if field == .trend && row.trend == nil { continue }
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                bytes.append(opening)
                switch field {
                case .symbol: appendString(row.symbol, to: &bytes)
                case .baseAsset: appendString(row.baseAsset, to: &bytes)
                case .quoteAsset: appendString(row.quoteAsset, to: &bytes)
                case .currency: appendString(row.currency, to: &bytes)
                case .price: appendNumber(row.price, to: &bytes)
                case .open: appendNumber(row.open, to: &bytes)
                case .high: appendNumber(row.high, to: &bytes)
                case .low: appendNumber(row.low, to: &bytes)
                case .bid: appendNumber(row.bid, to: &bytes)
                case .ask: appendNumber(row.ask, to: &bytes)
                case .changePercent: appendNumber(row.changePercent, to: &bytes)
                case .spread: appendNumber(row.spread, to: &bytes)
                case .spreadPercent: appendNumber(row.spreadPercent, to: &bytes)
                case .volume: appendNumber(row.volume, to: &bytes)
                case .volumeValue: appendNumber(row.volumeValue, to: &bytes)
                case .fxRate: appendNumber(row.fxRate, to: &bytes)
                case .updatedAt:
                    if let at = row.updatedAt {
                        bytes.append(UInt8(ascii: "\""))
                        ReportDates.appendISO8601(at, to: &bytes)
                        bytes.append(UInt8(ascii: "\""))
                    } else {
                        bytes += "null"
                    }
                case .stale:
                    if row.isStale { bytes += "true" } else { bytes += "false" }
                case .trend:
                    if let trend = row.trend { appendTrend(trend, to: &bytes) }
                }
            }
            bytes += "\n    }"
            if !last { bytes.append(UInt8(ascii: ",")) }
        }

        /// The encoder's bytes for `TrendItem(trend)`, each figure written from its digits: a
        /// `String` per day of the series was most of a report with history's JSON.
        static func appendTrend<Sink: ByteSink & ~Copyable>(_ trend: Trend, to bytes: inout Sink) {
            bytes += "{"
            for (key, value) in [("change_30d_pct", trend.change30d), ("change_7d_pct", trend.change7d), ("change_prev_pct", trend.sincePrevious)] {
                bytes += "\n        \""
                bytes.append(utf8: key)
                bytes += "\" : "
                appendNumber(value, to: &bytes)
                bytes.append(UInt8(ascii: ","))
            }
            bytes += "\n        \"series\" : ["
            if trend.series.isEmpty {
                bytes += "\n\n        ]"
            } else {
                for (index, point) in trend.series.enumerated() {
                    bytes += "\n          "
                    // `DecimalParts.plainText`, as the series always was: Foundation's text
                    // where the parts cannot be read (NaN).
                    if let parts = DecimalParts(point) {
                        bytes.append(UInt8(ascii: "\""))
                        parts.appendPlain(to: &bytes)
                        bytes.append(UInt8(ascii: "\""))
                    } else {
                        appendString(point.description, to: &bytes)
                    }
                    if index < trend.series.count - 1 { bytes.append(UInt8(ascii: ",")) }
                }
                bytes += "\n        ]"
            }
            bytes += "\n      }"
        }

        /// `JSONRenderer.number(value)` as a JSON string (`null` for none): plain digits need no
        /// escaping, and no `String` is made for them.
        static func appendNumber<Sink: ByteSink & ~Copyable>(_ value: Decimal?, to bytes: inout Sink) {
            guard let value else {
                bytes += "null"
                return
            }
            guard let parts = DecimalParts(value) else {
                appendString(JSONRenderer.number(value) ?? "", to: &bytes)
                return
            }
            bytes.append(UInt8(ascii: "\""))
            parts.appendPlain(to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }

        static let hex = Array("0123456789abcdef".utf8)

        /// A JSON string as JSONEncoder escapes it: quote, backslash and control characters;
        /// slashes and everything else as they are.
        static func appendString<Sink: ByteSink & ~Copyable>(_ text: String, to bytes: inout Sink) {
            bytes.append(UInt8(ascii: "\""))
            // Nearly every string (symbols, assets, codes, figures) has nothing to escape: appended whole.
            if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
                bytes.append(utf8: text)
                bytes.append(UInt8(ascii: "\""))
                return
            }
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes += "\\\""
                case UInt8(ascii: "\\"): bytes += "\\\\"
                case 0x0A: bytes += "\\n"
                case 0x0D: bytes += "\\r"
                case 0x09: bytes += "\\t"
                case 0x08: bytes += "\\b"
                case 0x0C: bytes += "\\f"
                case 0..<0x20:
                    bytes += "\\u00"
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0x0F)])
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Full precision, plain digits: JSON numbers would lose digits in most readers' doubles.
    static func number(_ value: Decimal?) -> String? {
        value.map { $0.isNaN ? "" : DecimalParts.plainText($0) }
    }

    struct Document: Encodable {
        var report: Meta
        var sources: Sources
        var ratesUsed: [Rate]
        var summary: Summary
        var markets: [Market]
        var warnings: [String]
        var notices: [NoticeItem]
        var freshness: FreshnessItem
        var alerts: [AlertItem]

        enum CodingKeys: String, CodingKey {
            case report, sources, summary, markets, warnings, notices, freshness, alerts
            case ratesUsed = "rates_used"
        }

        init(_ report: Report, withMarkets: Bool = true) {
            self.report = Meta(
                generatedAt: ReportDates.iso8601(report.generatedAt), currency: report.currency,
                locale: report.localeIdentifier, dataDate: report.dataDate)
            var sources = Sources()
            for info in report.sources {
                var liveError: String?
                if case let .cache(error) = info.origin { liveError = error }
                let source = Source(
                    url: info.location, status: info.status.rawValue, liveError: liveError,
                    fetchedAt: ReportDates.iso8601(info.fetchedAt),
                    newestTickerAt: info.source == .tickers ? report.summary.newestTickerAt.map(ReportDates.iso8601) : nil,
                    rateDate: info.source == .rates ? report.rates.date : nil)
                switch info.source {
                case .tickers: sources.tickers = source
                case .rates: sources.rates = source
                case .klines: break  // backfill's alone; no report reads it
                }
            }
            self.sources = sources
            ratesUsed = report.summary.ratesUsed.map {
                Rate(quoteAsset: $0.quoteAsset, currency: report.currency, rate: JSONRenderer.number($0.rate) ?? "", via: $0.via)
            }
            summary = Summary(report.summary)
            markets = withMarkets ? report.rows.map(Market.init) : []
            warnings = DiagnosticText.lines(report)
            notices = report.notices.map { NoticeItem(kind: $0.kind.rawValue, text: NoticeText.text($0)) }
            alerts = zip(report.alerts, AlertText.messages(report)).map { alert, message in
                AlertItem(
                    rule: alert.rule.description, symbol: alert.symbol, value: DecimalParts.plainText(alert.value),
                    unit: alert.unit, message: message)
            }
            let f = report.freshness
            freshness = FreshnessItem(
                tickerReference: ReportDates.iso8601(f.tickerReference), expectedRatesDate: f.expectedRatesDate,
                ratesBehind: f.ratesBehind, ratesAhead: f.ratesAhead, staleMarkets: f.staleMarkets, exchangeHalt: f.halt?.rawValue)
        }
    }

    struct TrendItem: Encodable {
        var sincePrevious: String?
        var change7d: String?
        var change30d: String?
        /// Daily prices, oldest first, ending with this report's.
        var series: [String]
        enum CodingKeys: String, CodingKey {
            case series
            case sincePrevious = "change_prev_pct"
            case change7d = "change_7d_pct"
            case change30d = "change_30d_pct"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(sincePrevious, forKey: .sincePrevious)
            try container.encode(change7d, forKey: .change7d)
            try container.encode(change30d, forKey: .change30d)
            try container.encode(series, forKey: .series)
        }
    }

    struct AlertItem: Encodable {
        var rule, symbol, value, unit, message: String
    }

    struct NoticeItem: Encodable {
        var kind: String
        var text: String
    }

    struct FreshnessItem: Encodable {
        var tickerReference: String
        var expectedRatesDate: String
        var ratesBehind: Bool
        var ratesAhead: Bool
        var staleMarkets: Int
        var exchangeHalt: String?
        enum CodingKeys: String, CodingKey {
            case tickerReference = "ticker_reference"
            case expectedRatesDate = "expected_rates_date"
            case ratesBehind = "rates_behind"
            case ratesAhead = "rates_ahead"
            case staleMarkets = "stale_markets"
            case exchangeHalt = "exchange_halt"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(tickerReference, forKey: .tickerReference)
            try container.encode(expectedRatesDate, forKey: .expectedRatesDate)
            try container.encode(ratesBehind, forKey: .ratesBehind)
            try container.encode(ratesAhead, forKey: .ratesAhead)
            try container.encode(staleMarkets, forKey: .staleMarkets)
            try container.encode(exchangeHalt, forKey: .exchangeHalt)
        }
    }

    struct Meta: Encodable {
        var generatedAt: String
        var currency: String
        var locale: String
        var dataDate: String
        enum CodingKeys: String, CodingKey {
            case currency, locale
            case generatedAt = "generated_at"
            case dataDate = "data_date"
        }
    }

    struct Sources: Encodable {
        var tickers: Source?
        var rates: Source?
    }

    struct Source: Encodable {
        var url: String
        /// `live`, `file`, `sample` or `cached`.
        var status: String
        /// Why the cached copy was used; absent when live.
        var liveError: String?
        var fetchedAt: String
        var newestTickerAt: String?
        var rateDate: String?
        enum CodingKeys: String, CodingKey {
            case url, status
            case liveError = "live_error"
            case fetchedAt = "fetched_at"
            case newestTickerAt = "newest_ticker_at"
            case rateDate = "rate_date"
        }
    }

    struct Rate: Encodable {
        var quoteAsset: String
        var currency: String
        var rate: String
        var via: String
        enum CodingKeys: String, CodingKey {
            case currency, rate, via
            case quoteAsset = "quote_asset"
        }
    }

    struct Summary: Encodable {
        var counts: [String: Int]
        var advancers: Int
        var decliners: Int
        var unchanged: Int
        var inrPremium: [String: String]?
        var gainers: [Mover]
        var losers: [Mover]
        var topVolume: [Mover]
        var widestSpreads: [Mover]
        /// The least volume value a market needed for the four lists, and how many it left out.
        var volumeFloor: String
        var belowVolumeFloor: Int
        enum CodingKeys: String, CodingKey {
            case counts, advancers, decliners, unchanged, gainers, losers
            case volumeFloor = "volume_floor"
            case belowVolumeFloor = "below_volume_floor"
            case inrPremium = "inr_premium"
            case topVolume = "top_volume"
            case widestSpreads = "widest_spreads"
        }

        init(_ summary: ReportSummary) {
            let counts = summary.counts
            self.counts = [
                "tickers_received": counts.tickersReceived, "skipped": counts.skipped,
                "unconvertible": counts.unconvertible, "converted": counts.converted,
                "selected": counts.selected, "shown": counts.shown, "assets": counts.assets,
            ]
            advancers = summary.advancers
            decliners = summary.decliners
            unchanged = summary.unchanged
            inrPremium = summary.inrPremium.map {
                [
                    "usdtinr_last": DecimalParts.plainText($0.usdtInrLast), "ecb_usd_inr": DecimalParts.plainText($0.ecbUsdInr),
                    "percent": DecimalParts.plainText($0.percent),
                ]
            }
            gainers = summary.gainers.map { Mover(symbol: $0.symbol, value: JSONRenderer.number($0.changePercent)) }
            losers = summary.losers.map { Mover(symbol: $0.symbol, value: JSONRenderer.number($0.changePercent)) }
            topVolume = summary.topVolume.map { Mover(symbol: $0.symbol, value: JSONRenderer.number($0.volumeValue)) }
            widestSpreads = summary.widestSpreads.map { Mover(symbol: $0.symbol, value: JSONRenderer.number($0.spreadPercent)) }
            volumeFloor = DecimalParts.plainText(summary.volumeFloor)
            belowVolumeFloor = summary.belowVolumeFloor
        }
    }

    struct Mover: Encodable {
        var symbol: String
        var value: String?
    }

    struct Market: Encodable {
        var values: [(String, String?)]
        var stale: Bool
        var trend: TrendItem?

        init(_ row: MarketRow) {
            values = [
                ("symbol", row.symbol), ("base_asset", row.baseAsset), ("quote_asset", row.quoteAsset),
                ("currency", row.currency), ("price", JSONRenderer.number(row.price)),
                ("open", JSONRenderer.number(row.open)), ("high", JSONRenderer.number(row.high)),
                ("low", JSONRenderer.number(row.low)), ("bid", JSONRenderer.number(row.bid)),
                ("ask", JSONRenderer.number(row.ask)), ("change_pct", JSONRenderer.number(row.changePercent)),
                ("spread", JSONRenderer.number(row.spread)), ("spread_pct", JSONRenderer.number(row.spreadPercent)),
                ("volume", JSONRenderer.number(row.volume)), ("volume_value", JSONRenderer.number(row.volumeValue)),
                ("fx_rate", JSONRenderer.number(row.fxRate)), ("updated_at", row.updatedAt.map(ReportDates.iso8601)),
            ]
            stale = row.isStale
            trend = row.trend.map {
                TrendItem(
                    sincePrevious: JSONRenderer.number($0.sincePrevious), change7d: JSONRenderer.number($0.change7d),
                    change30d: JSONRenderer.number($0.change30d), series: $0.series.map(DecimalParts.plainText))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in values {
                // Empty figures are null, so a reader can tell "none" from "zero".
                try container.encode(value, forKey: AnyCodingKey(stringValue: key))
            }
            try container.encode(stale, forKey: AnyCodingKey(stringValue: "stale"))
            if let trend { try container.encode(trend, forKey: AnyCodingKey(stringValue: "trend")) }
        }
    }
}
