import Foundation

/// RFC 4180 CSV: one header row, one row per market, CRLF line ends, plain numbers.
public struct CSVRenderer: Sendable {
    /// The documented columns, in order. New columns may only ever be added after these.
    public static let columns = [
        "symbol", "base_asset", "quote_asset", "currency", "price", "open", "high", "low", "bid", "ask",
        "change_pct", "spread", "spread_pct", "volume", "volume_value", "fx_rate", "updated_at",
    ]

    /// Columns after the documented ones, in order.
    public static let extraColumns = ["stale", "change_prev_pct", "change_7d_pct", "change_30d_pct"]

    public init() {}

    public func render(_ report: Report) -> String {
        var lines = [(Self.columns + Self.extraColumns).joined(separator: ",")]
        lines.reserveCapacity(report.rows.count + 1)
        for row in report.rows {
            let cells = [
                Self.text(row.symbol), Self.text(row.baseAsset), Self.text(row.quoteAsset), Self.text(row.currency),
                PlainNumber.format(row.price), PlainNumber.format(row.open), PlainNumber.format(row.high),
                PlainNumber.format(row.low), PlainNumber.format(row.bid), PlainNumber.format(row.ask),
                PlainNumber.format(row.changePercent), PlainNumber.format(row.spread),
                PlainNumber.format(row.spreadPercent), PlainNumber.format(row.volume),
                PlainNumber.format(row.volumeValue), PlainNumber.format(row.fxRate),
                row.updatedAt.map(ReportDates.iso8601) ?? "",
                row.isStale ? "true" : "false",
                PlainNumber.format(row.trend?.sincePrevious), PlainNumber.format(row.trend?.change7d),
                PlainNumber.format(row.trend?.change30d),
            ]
            lines.append(cells.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The `…-alerts.csv` file: one row per fired alert.
    public func alerts(_ report: Report) -> String {
        var lines = ["rule,symbol,value,unit,message"]
        for (alert, message) in zip(report.alerts, AlertText.messages(report)) {
            lines.append(
                [
                    Self.text(alert.rule.description), Self.text(alert.symbol), PlainNumber.format(alert.value),
                    Self.text(alert.unit), Self.text(message),
                ].joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// A text cell: quoted when it holds a comma, quote or line break (RFC 4180), and defused when
    /// it starts like a spreadsheet formula (OWASP: prefix a single quote).
    public static func text(_ value: String) -> String {
        var cell = value
        if let first = cell.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) {
            cell = "'" + cell
        }
        if cell.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            cell = "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return cell
    }
}
