/// The report formats, by their `--format` names.
public enum ReportFormat: String, Sendable, Codable, CaseIterable, Comparable {
    case csv
    case markdown
    case html
    case json

    public var fileExtension: String {
        switch self {
        case .csv: "csv"
        case .markdown: "md"
        case .html: "html"
        case .json: "json"
        }
    }

    /// `--format` values: the names, `md` for Markdown, and `all`.
    public static func parse(_ text: String) -> [ReportFormat]? {
        let name = text.lowercased()
        if name == "all" { return allCases }
        if name == "md" { return [.markdown] }
        return ReportFormat(rawValue: name).map { [$0] }
    }

    public static func < (left: ReportFormat, right: ReportFormat) -> Bool {
        allCases.firstIndex(of: left) ?? 0 < allCases.firstIndex(of: right) ?? 0
    }
}
