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
    package static let extraColumns = ["stale", "change_prev_pct", "change_7d_pct", "change_30d_pct"]

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
        func append(_ value: Decimal?, to bytes: inout [UInt8]) {
            guard let value else { return }
            let start = bytes.count
            if !value.isNaN, !value.isZero, let parts = DecimalParts(value),
                let rounded = parts.rounded(scale: PlainNumber.significantDigits - 1 - parts.magnitude)
            {
                rounded.appendPlainText(to: &bytes)
            } else {
                bytes += PlainNumber.format(value).utf8
            }
            if decimalComma {
                for index in start..<bytes.count where bytes[index] == UInt8(ascii: ".") { bytes[index] = UInt8(ascii: ",") }
            }
        }

        func text(_ value: String) -> String {
            CSVRenderer.text(value, separator: separator)
        }

        func file(_ lines: [[String]]) -> String {
            (byteOrderMark ? "\u{FEFF}" : "") + lines.map { $0.joined(separator: separator) }.joined(separator: "\r\n") + "\r\n"
        }
    }

    package func render(_ report: Report) -> String {
        let style = Style(dialect, localeIdentifier: report.localeIdentifier)
        // Each line made in one reused byte buffer and appended to the file as made: an array of
        // cells per row, a line per row and then their join held the file's text three times
        // over (100,000 markets: some 25 MB each).
        var file = String()
        file.reserveCapacity((report.rows.count + 1) * 260)
        if style.byteOrderMark { file += "\u{FEFF}" }
        file += (Self.columns + Self.extraColumns).joined(separator: style.separator)
        let separator = Array(style.separator.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024)
        for row in report.rows {
            bytes.removeAll(keepingCapacity: true)
            bytes += "\r\n".utf8
            for text in [row.symbol, row.baseAsset, row.quoteAsset, row.currency] {
                bytes += style.text(text).utf8
                bytes += separator
            }
            for value in [
                row.price, row.open, row.high, row.low, row.bid, row.ask, row.changePercent, row.spread,
                row.spreadPercent, row.volume, row.volumeValue, row.fxRate,
            ] {
                style.append(value, to: &bytes)
                bytes += separator
            }
            if let updatedAt = row.updatedAt { bytes += ReportDates.iso8601(updatedAt).utf8 }
            bytes += separator
            bytes += (row.isStale ? "true" : "false").utf8
            for value in [row.trend?.sincePrevious, row.trend?.change7d, row.trend?.change30d] {
                bytes += separator
                style.append(value, to: &bytes)
            }
            file += String(decoding: bytes, as: UTF8.self)
        }
        file += "\r\n"
        return file
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
