import Foundation
import Synchronization

/// Times for people in the reader's time zone, the zone named as the report's locale names it:
/// `2022-11-22 01:51 CET` in sv_SE, `2022-11-21 19:51 EST` in en_US; in UTC, today's
/// `2022-11-22 00:51 UTC`. Machine formats (CSV, JSON, file names) keep UTC.
struct PeopleTime {
    let zone: TimeZone
    let locale: Locale
    /// Names by offset: a report's times are hours apart, and a `DateFormatter` per market
    /// would cost more than the rest of the row.
    private let names = Names()

    /// Shared by the copies of one `PeopleTime`.
    private final class Names: Sendable {
        private let byOffset = Mutex<[Int: String]>([:])

        func name(for offset: Int, make: () -> String) -> String {
            if let known = byOffset.withLock({ $0[offset] }) { return known }
            let name = make()
            byOffset.withLock { $0[offset] = name }
            return name
        }
    }

    init(zone: TimeZone, locale: Locale) {
        self.zone = zone
        self.locale = locale
    }

    static let utcIdentifiers: Set<String> = ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Universal", "Zulu", "Etc/Universal", "Etc/Zulu"]

    func minute(_ date: Date) -> String {
        if Self.utcIdentifiers.contains(zone.identifier) { return ReportDates.minute(date) }
        let offset = zone.secondsFromGMT(for: date)
        let local = ReportDates.minute(date.addingTimeInterval(TimeInterval(offset)))
        return String(local.dropLast(4)) + " " + name(for: date, offset: offset)
    }

    private func name(for date: Date, offset: Int) -> String {
        names.name(for: offset) {
            let formatter = DateFormatter()
            formatter.locale = locale
            formatter.timeZone = zone
            formatter.dateFormat = "zzz"
            return formatter.string(from: date)
        }
    }
}
