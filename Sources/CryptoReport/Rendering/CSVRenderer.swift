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

        func text(_ value: String) -> String {
            CSVRenderer.text(value, separator: separator)
        }

        func file(_ lines: [[String]]) -> String {
            (byteOrderMark ? "\u{FEFF}" : "") + lines.map { $0.joined(separator: separator) }.joined(separator: "\r\n") + "\r\n"
        }
    }

    package func render(_ report: Report) -> String {
        let style = Style(dialect, localeIdentifier: report.localeIdentifier)
        var lines = [Self.columns + Self.extraColumns]
        lines.reserveCapacity(report.rows.count + 1)
        for row in report.rows {
            lines.append([
                style.text(row.symbol), style.text(row.baseAsset), style.text(row.quoteAsset), style.text(row.currency),
                style.number(row.price), style.number(row.open), style.number(row.high),
                style.number(row.low), style.number(row.bid), style.number(row.ask),
                style.number(row.changePercent), style.number(row.spread),
                style.number(row.spreadPercent), style.number(row.volume),
                style.number(row.volumeValue), style.number(row.fxRate),
                row.updatedAt.map(ReportDates.iso8601) ?? "",
                row.isStale ? "true" : "false",
                style.number(row.trend?.sincePrevious), style.number(row.trend?.change7d),
                style.number(row.trend?.change30d),
            ])
        }
        return style.file(lines)
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
