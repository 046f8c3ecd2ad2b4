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
        // file, are written straight into bytes in the encoder's own layout (`MarketWriter`),
        // without the encoder's tree of every value.
        // The document is made without its markets, so no market's text is made only to be dropped.
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
            case symbol, baseAsset, quoteAsset, name, currency, price, open, high, low, bid, ask, changePercent
            case spread, spreadPercent, volume, volumeValue, fxRate, updatedAt, source, stale, trend

            var key: String {
                switch self {
                case .symbol: "symbol"
                case .baseAsset: "base_asset"
                case .quoteAsset: "quote_asset"
                case .name: "name"
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
                case .source: "source"
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
                if field == .trend && row.trend == nil || field == .name && row.name == nil { continue }
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                bytes.append(opening)
                switch field {
                case .symbol: appendString(row.symbol, to: &bytes)
                case .baseAsset: appendString(row.baseAsset, to: &bytes)
                case .quoteAsset: appendString(row.quoteAsset, to: &bytes)
                case .name: appendString(row.name ?? "", to: &bytes)
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
                case .source: appendString(row.exchange.rawValue, to: &bytes)
                case .stale:
                    if row.isStale { bytes += "true" } else { bytes += "false" }
                case .trend:
                    if let trend = row.trend { appendTrend(trend, to: &bytes) }
                }
            }
            bytes += "\n    }"
            if !last { bytes.append(UInt8(ascii: ",")) }
        }

        /// The encoder's bytes for `TrendItem(trend)`, each figure written from its digits,
        /// without a `String` per day of the series.
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
                    // As `DecimalParts.plainText` writes it: Foundation's text where the parts
                    // cannot be read (NaN).
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
}
