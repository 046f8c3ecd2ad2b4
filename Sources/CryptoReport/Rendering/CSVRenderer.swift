import Foundation

/// RFC 4180 CSV: one header row, one row per market, CRLF line ends, plain numbers. The `excel`
/// dialect adds a byte-order mark and, for a decimal-comma locale, writes `;` and `,` instead of
/// `,` and `.`: what Excel and LibreOffice in that locale split into columns of numbers.
package struct CSVRenderer: Sendable {
    /// The documented columns, in order. New columns may only ever be added after these.
    package static let columns = [
        "symbol", "base_asset", "quote_asset", "currency", "price", "open", "high", "low", "bid", "ask",
        "change_pct", "spread", "spread_pct", "volume", "volume_value", "fx_rate", "updated_at",
    ]

    /// Columns after the documented ones, in order.
    package static let extraColumns = ["stale", "change_prev_pct", "change_7d_pct", "change_30d_pct", "source"]

    package var dialect: CSVDialect

    package init(dialect: CSVDialect = .rfc4180) {
        self.dialect = dialect
    }

    /// The cell separator and decimal mark for a report's locale.
    struct Style {
        var separator: String
        var decimalComma: Bool
        var byteOrderMark: Bool

        init(_ dialect: CSVDialect, localeIdentifier: String) {
            byteOrderMark = dialect == .excel
            decimalComma = dialect == .excel && Locale(identifier: localeIdentifier).decimalSeparator == ","
            separator = decimalComma ? ";" : ","
        }

        func number(_ value: Decimal?) -> String {
            let text = PlainNumber.format(value)
            return decimalComma ? text.replacingOccurrences(of: ".", with: ",") : text
        }

        /// `number(value)`'s bytes appended to `bytes`, without a `String` for each cell.
        func append<Sink: ByteSink & ~Copyable>(_ value: Decimal?, to bytes: inout Sink) {
            guard let value else { return }
            guard decimalComma else {
                PlainNumber.append(value, to: &bytes)
                return
            }
            var digits: [UInt8] = []
            PlainNumber.append(value, to: &digits)
            for index in digits.indices where digits[index] == UInt8(ascii: ".") { digits[index] = UInt8(ascii: ",") }
            bytes.append(digits)
        }

        func text(_ value: String) -> String {
            CSVRenderer.text(value, separator: separator)
        }

        func file(_ lines: [[String]]) -> String {
            (byteOrderMark ? "\u{FEFF}" : "") + lines.map { $0.joined(separator: separator) }.joined(separator: "\r\n") + "\r\n"
        }
    }

    package func render(_ report: Report) -> String {
        var output = ReportBytes(reserving: (report.rows.count + 1) * 260)
        write(report, to: &output)
        return output.text
    }

    /// The file's bytes, a line at a time into `output` (a staged file's pieces): no cell, line
    /// or file is a `String` of its own.
    func write(_ report: Report, to output: inout ReportBytes) {
        let style = Style(dialect, localeIdentifier: report.localeIdentifier)
        if style.byteOrderMark { output += "\u{FEFF}" }
        output.append((Self.columns + Self.extraColumns).joined(separator: style.separator))
        let separator = Array(style.separator.utf8)
        for row in report.rows {
            output += "\r\n"
            for text in [row.symbol, row.baseAsset, row.quoteAsset, row.currency] {
                Self.appendText(text, separator: style.separator, to: &output.bytes)
                output += separator
            }
            for value in [
                row.price, row.open, row.high, row.low, row.bid, row.ask, row.changePercent, row.spread,
                row.spreadPercent, row.volume, row.volumeValue, row.fxRate,
            ] {
                style.append(value, to: &output.bytes)
                output += separator
            }
            if let updatedAt = row.updatedAt { ReportDates.appendISO8601(updatedAt, to: &output.bytes) }
            output += separator
            output += row.isStale ? "true" : "false"
            for value in [row.trend?.sincePrevious, row.trend?.change7d, row.trend?.change30d] {
                output += separator
                style.append(value, to: &output.bytes)
            }
            output += separator
            output.bytes.append(utf8: row.exchange.rawValue)
            output.flushIfFull()
        }
        output += "\r\n"
    }

    /// `text(value, separator:)`'s bytes: a symbol or asset name (nearly every cell) needs
    /// neither quoting nor defusing, and is appended as it is.
    static func appendText<Sink: ByteSink & ~Copyable>(_ value: String, separator: String, to bytes: inout Sink) {
        let plain = value.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
        if plain {
            bytes.append(utf8: value)
        } else {
            bytes.append(utf8: text(value, separator: separator))
        }
    }

    /// The `…-alerts.csv` file: one row per fired alert.
    package func alerts(_ report: Report) -> String {
        let style = Style(dialect, localeIdentifier: report.localeIdentifier)
        var lines = [["rule", "symbol", "value", "unit", "message"]]
        for (alert, message) in zip(report.alerts, AlertText.messages(report)) {
            lines.append([
                style.text(alert.rule.description), style.text(alert.symbol), style.number(alert.value),
                style.text(alert.unit), style.text(message),
            ])
        }
        return style.file(lines)
    }

    /// The `…-holdings.csv` file: one row per holding, then the total, in the report currency.
    package func holdings(_ report: Report) -> String {
        let style = Style(dialect, localeIdentifier: report.localeIdentifier)
        var lines = [["asset", "amount", "market", "price", "value", "share_pct", "cost", "gain", "currency"]]
        guard let holdings = report.holdings else { return style.file(lines) }
        for position in holdings.positions {
            lines.append([
                style.text(position.asset), style.number(position.amount), style.text(position.market), style.number(position.price),
                style.number(position.value), style.number(position.sharePercent), style.number(position.cost), style.number(position.gain),
                holdings.currency,
            ])
        }
        lines.append(["total", "", "", "", style.number(holdings.total), style.number(holdings.total > 0 ? 100 : 0), "", "", holdings.currency])
        return style.file(lines)
    }

    /// A text cell: quoted when it holds the separator, a quote or a line break (RFC 4180), and
    /// defused when it starts like a spreadsheet formula (OWASP: prefix a single quote).
    package static func text(_ value: String, separator: String = ",") -> String {
        var cell = value
        if let first = cell.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) {
            cell = "'" + cell
        }
        let separator = separator.unicodeScalars.first ?? ","
        if cell.unicodeScalars.contains(where: { $0 == separator || $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            cell = "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return cell
    }
}
