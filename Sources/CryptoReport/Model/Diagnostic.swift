/// A recoverable problem: the run goes on, the report says what was left out and why.
public struct Diagnostic: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public var source: DataSource
    public var message: String
    /// What this problem has in common with others of its kind (`no lastPrice`), for summing up a
    /// payload with the same fault in every row; not part of what the diagnostic says.
    public var kind: String?

    public init(_ source: DataSource, _ message: String, kind: String? = nil) {
        self.source = source
        self.message = message
        self.kind = kind
    }

    public var description: String { "\(source.displayName): \(message)" }

    private enum CodingKeys: String, CodingKey {
        case source, message
    }

    public static func == (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        lhs.source == rhs.source && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(message)
    }

    /// How many of one kind are listed before the rest are summed up in one line.
    public static let keptPerKind = 5

    /// `diagnostics` with at most `keptPerKind` of each kind; where the next would have come, one
    /// line says how many more there were: `… and 999,980 more rows like it (no lastPrice)`. A
    /// million broken rows make six lines on standard error and in every report, not a million.
    public static func summarised(_ diagnostics: [Diagnostic], keeping kept: Int = keptPerKind) -> [Diagnostic] {
        var seen: [String: Int] = [:]
        var summaryIndex: [String: Int] = [:]
        var result: [Diagnostic] = []
        for diagnostic in diagnostics {
            guard let kind = diagnostic.kind else {
                result.append(diagnostic)
                continue
            }
            let count = seen[kind, default: 0] + 1
            seen[kind] = count
            if count <= kept {
                result.append(diagnostic)
            } else if count == kept + 1 {
                summaryIndex[kind] = result.count
                result.append(diagnostic)
            }
        }
        for (kind, index) in summaryIndex {
            let more = seen[kind, default: 0] - kept
            result[index] = Diagnostic(
                result[index].source, "… and \(grouped(more)) more \(more == 1 ? "row" : "rows") like it (\(kind))", kind: kind)
        }
        return result
    }

    /// `999,980`: the same in every locale, as the rest of standard error is English.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var text = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
