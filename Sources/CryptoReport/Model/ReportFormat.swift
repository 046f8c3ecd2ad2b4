/// The report formats, by their `--format` names.
public enum ReportFormat: String, Sendable, Codable, CaseIterable, Comparable {
    case csv
    case markdown
    case html
    case json
    /// Price directives for hledger and Ledger (`P 2022-11-22 00:51:32 BTC 171447.35 SEK`).
    case ledger
    /// Price directives for Beancount (`2022-11-22 price BTC 171447.35 SEK`).
    case beancount

    /// What `all` and the default write: the reports. The price files are for the few who keep
    /// books, so they are asked for by name and a cron job's folder does not change under it.
    public static let reports: [ReportFormat] = [.csv, .markdown, .html, .json]

    public var fileExtension: String {
        switch self {
        case .csv: "csv"
        case .markdown: "md"
        case .html: "html"
        case .json: "json"
        case .ledger: "ledger"
        case .beancount: "beancount"
        }
    }

    /// `--format` values: the names, `md` for Markdown, and `all` (the four reports).
    public static func parse(_ text: String) -> [ReportFormat]? {
        let name = text.lowercased()
        if name == "all" { return reports }
        if name == "md" { return [.markdown] }
        return ReportFormat(rawValue: name).map { [$0] }
    }

    public static func < (left: ReportFormat, right: ReportFormat) -> Bool {
        allCases.firstIndex(of: left) ?? 0 < allCases.firstIndex(of: right) ?? 0
    }
}
