package import Foundation

/// `cryptoreport history` output: one asset's series as CSV, Markdown or JSON, in the same
/// styles as the reports (RFC 4180 CSV with plain numbers; JSON with full-precision decimal
/// strings, sorted keys and explicit nulls, as `JSONRenderer` writes).
package struct HistoryRenderer: Sendable {
    package var symbol: String
    package var currency: String

    package init(symbol: String, currency: String) {
        self.symbol = symbol
        self.currency = currency
    }

    package static let csvColumns = [
        "time", "symbol", "currency", "price", "open", "high", "low", "change_pct", "volume", "volume_value", "fx_rate",
        "rates_date", "kind", "source",
    ]

    package func csv(_ points: [HistoryExporter.Point]) -> String {
        String(decoding: csvBytes(points), as: UTF8.self)
    }

    /// The points' lines, each written by `write` from its point alone, in order.
    static func lines(_ count: Int, perPoint: Int, _ write: (Int, inout [UInt8]) -> Void) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * perPoint)
        for index in 0..<count { write(index, &bytes) }
        return bytes
    }

    /// `csv(points)`'s bytes.
    package func csvBytes(_ points: [HistoryExporter.Point]) -> [UInt8] {
        // Written as bytes, a cell at a time, without a `String` per cell and their joins.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 + points.count * 200)
        bytes += Self.csvColumns.joined(separator: ",").utf8
        bytes += "\r\n".utf8
        bytes += Self.lines(
            points.count, perPoint: 200,
            { index, bytes in
                // Fields read in place, a cell at a time: no copy of each point, and no array of its
                // eight numbers.
                func number(_ value: Decimal?) {
                    bytes.append(UInt8(ascii: ","))
                    if let value { PlainNumber.append(value, to: &bytes) }
                }
                ReportDates.appendISO8601(points[index].time, to: &bytes)
                bytes.append(UInt8(ascii: ","))
                CSVRenderer.appendText(points[index].row.symbol, separator: ",", to: &bytes)
                bytes.append(UInt8(ascii: ","))
                bytes += points[index].row.currency.utf8
                number(points[index].row.price)
                number(points[index].row.open)
                number(points[index].row.high)
                number(points[index].row.low)
                number(points[index].row.changePercent)
                number(points[index].row.volume)
                number(points[index].row.volumeValue)
                number(points[index].row.fxRate)
                bytes.append(UInt8(ascii: ","))
                bytes += points[index].ratesDate.utf8
                bytes.append(UInt8(ascii: ","))
                bytes += points[index].kind.rawValue.utf8
                bytes.append(UInt8(ascii: ","))
                bytes += points[index].row.exchange.rawValue.utf8
                bytes += "\r\n".utf8
            })
        return bytes
    }

    package func json(_ points: [HistoryExporter.Point]) throws -> String {
        String(decoding: try jsonBytes(points), as: UTF8.self)
    }

    /// `json(points)`'s bytes.
    package func jsonBytes(_ points: [HistoryExporter.Point]) throws -> [UInt8] {
        // Written as bytes in the encoder's own layout, without `JSONEncoder`'s tree of every
        // value before its text.
        // The encoder still writes an empty series, and any text with a byte to escape.
        guard !points.isEmpty, Self.isPlain(symbol), Self.isPlain(currency),
            points.allSatisfy({ Self.isPlain($0.row.symbol) && Self.isPlain($0.ratesDate) && Self.isPlain($0.kind.rawValue) })
        else { return Array(try encoded(points).utf8) }
        typealias Writer = JSONRenderer.MarketWriter
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 + points.count * 620)
        bytes += "{\n  \"currency\" : ".utf8
        Writer.appendString(currency, to: &bytes)
        bytes += ",\n  \"points\" : [".utf8
        bytes += Self.lines(
            points.count, perPoint: 620,
            { index, bytes in
                func field(_ key: String, _ value: Decimal?) {
                    bytes += "\n      \"".utf8
                    bytes += key.utf8
                    bytes += "\" : ".utf8
                    Writer.appendNumber(value, to: &bytes)
                    bytes.append(UInt8(ascii: ","))
                }
                func field(_ key: String, _ text: String) {
                    bytes += "\n      \"".utf8
                    bytes += key.utf8
                    bytes += "\" : \"".utf8
                    bytes += text.utf8
                    bytes += "\",".utf8
                }
                let point = points[index]
                let row = point.row
                bytes += "\n    {".utf8
                // The keys in the encoder's sorted order; the price and the rate are never null
                // (`PointItem`: an empty string where there is no number).
                field("change_pct", row.changePercent)
                field("fx_rate", row.fxRate)
                field("high", row.high)
                field("kind", point.kind.rawValue)
                field("low", row.low)
                field("open", row.open)
                field("price", row.price)
                field("rates_date", point.ratesDate)
                field("source", row.exchange.rawValue)
                field("symbol", row.symbol)
                bytes += "\n      \"time\" : \"".utf8
                ReportDates.appendISO8601(point.time, to: &bytes)
                bytes += "\",".utf8
                field("volume", row.volume)
                bytes += "\n      \"volume_value\" : ".utf8
                Writer.appendNumber(row.volumeValue, to: &bytes)
                bytes += "\n    }".utf8
                if index < points.count - 1 { bytes.append(UInt8(ascii: ",")) }
            })
        bytes += "\n  ],\n  \"symbol\" : ".utf8
        Writer.appendString(symbol, to: &bytes)
        bytes += "\n}\n".utf8
        return bytes
    }

    /// Text JSON writes as it is: printable ASCII but the quote and the backslash.
    static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// The document through `JSONEncoder`: the reference the bytes above are tested against.
    func encoded(_ points: [HistoryExporter.Point]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = Document(symbol: symbol, currency: currency, points: points.map(PointItem.init))
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    package func markdown(_ points: [HistoryExporter.Point], locale: Locale) -> String {
        let numbers = PeopleNumberFormatter(currency: currency, locale: locale)
        let escape = MarkdownContentType()
        // A trend needs two points; a lone "Trend:" would read as a fault.
        var lines = ["# \(escape.escapeText(symbol.uppercased())) in \(currency)", ""]
        if points.count > 1 { lines += ["Trend: \(Sparkline.unicode(points.map(\.row.price)))", ""] }
        lines += [
            "| Time | Market | Price | 24h | Volume value | ECB rates | Source | Exchange |", "|:---|:---|---:|---:|---:|:---|:---|:---|",
        ]
        lines += points.map { point in
            "| \(ReportDates.minute(point.time)) | \(escape.escapeText(point.row.symbol)) | \(numbers.money(point.row.price)) | \(numbers.percent(point.row.changePercent)) | \(numbers.money(point.row.volumeValue)) | \(point.ratesDate) | \(point.kind.rawValue) | \(point.row.exchange.displayName) |"
        }
        if points.isEmpty {
            lines.append("")
            lines.append("No stored runs hold this asset.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    struct Document: Encodable {
        var symbol: String
        var currency: String
        var points: [PointItem]
    }

    struct PointItem: Encodable {
        var time, symbol, price: String
        var open, high, low, changePercent, volume, volumeValue: String?
        var fxRate, ratesDate, kind, source: String

        init(_ point: HistoryExporter.Point) {
            let row = point.row
            time = ReportDates.iso8601(point.time)
            symbol = row.symbol
            price = JSONRenderer.number(row.price) ?? ""
            open = JSONRenderer.number(row.open)
            high = JSONRenderer.number(row.high)
            low = JSONRenderer.number(row.low)
            changePercent = JSONRenderer.number(row.changePercent)
            volume = JSONRenderer.number(row.volume)
            volumeValue = JSONRenderer.number(row.volumeValue)
            fxRate = JSONRenderer.number(row.fxRate) ?? ""
            ratesDate = point.ratesDate
            kind = point.kind.rawValue
            source = point.row.exchange.rawValue
        }

        enum CodingKeys: String, CodingKey {
            case time, symbol, price, open, high, low, volume, kind, source
            case changePercent = "change_pct"
            case volumeValue = "volume_value"
            case fxRate = "fx_rate"
            case ratesDate = "rates_date"
        }

        /// Empty figures are null, as in the report's markets, so a reader can tell "none" from "zero".
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(time, forKey: .time)
            try container.encode(symbol, forKey: .symbol)
            try container.encode(price, forKey: .price)
            try container.encode(open, forKey: .open)
            try container.encode(high, forKey: .high)
            try container.encode(low, forKey: .low)
            try container.encode(changePercent, forKey: .changePercent)
            try container.encode(volume, forKey: .volume)
            try container.encode(volumeValue, forKey: .volumeValue)
            try container.encode(fxRate, forKey: .fxRate)
            try container.encode(ratesDate, forKey: .ratesDate)
            try container.encode(kind, forKey: .kind)
            try container.encode(source, forKey: .source)
        }
    }
}
