/// The names reports take in an output folder: `cryptoreport-2022-11-22-SEK.html`, the alerts
/// file `cryptoreport-2022-11-22-SEK-alerts.csv`, and their stable copies
/// `cryptoreport-latest-SEK.html`, `cryptoreport-latest-SEK-alerts.csv`.
public struct ReportFileName: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case report(ReportFormat)
        case alerts
    }

    /// `2022-11-22`
    public var date: String
    public var currency: String
    public var kind: Kind

    public init(date: String, currency: String, kind: Kind) {
        self.date = date
        self.currency = currency
        self.kind = kind
    }

    /// A dated report's name, or `nil` for any other file (latest copies, the index, history).
    public init?(parsing name: String) {
        let prefix = "cryptoreport-"
        guard name.hasPrefix(prefix) else { return nil }
        let rest = Array(name.dropFirst(prefix.count))
        // YYYY-MM-DD-CUR then `.ext` or `-alerts.csv`
        guard rest.count > 15 else { return nil }
        let date = String(rest[0..<10])
        let currency = String(rest[11..<14])
        let digits = [0, 1, 2, 3, 5, 6, 8, 9]
        guard digits.allSatisfy({ rest[$0].isASCII && rest[$0].isNumber }), rest[4] == "-", rest[7] == "-", rest[10] == "-",
            currency.allSatisfy({ $0.isASCII && $0.isUppercase }), Self.isCalendarDay(date)
        else { return nil }
        let tail = String(rest[14...])
        if tail == "-alerts.csv" {
            kind = .alerts
        } else if tail.hasPrefix("."), let format = ReportFormat.allCases.first(where: { "." + $0.fileExtension == tail }) {
            kind = .report(format)
        } else {
            return nil
        }
        self.date = date
        self.currency = currency
    }

    /// `YYYY-MM-DD` names a day of the Gregorian calendar (a report's day is one): a file named
    /// `cryptoreport-2022-13-45-SEK.csv` is no report, and as the newest "day" in the folder it
    /// would have kept the `latest` copies from ever moving on.
    static func isCalendarDay(_ text: String) -> Bool {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]) else { return false }
        let (year, month) = (parts[0], parts[1])
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = month == 2 ? (isLeap ? 29 : 28) : [4, 6, 9, 11].contains(month) ? 30 : 31
        return (1...days).contains(parts[2])
    }

    public var name: String { "cryptoreport-\(date)-\(currency)\(suffix)" }

    /// The stable name of the newest report of this currency and kind.
    public var latestName: String { "cryptoreport-latest-\(currency)\(suffix)" }

    private var suffix: String {
        switch kind {
        case let .report(format): ".\(format.fileExtension)"
        case .alerts: "-alerts.csv"
        }
    }
}
