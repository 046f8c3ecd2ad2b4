import CryptoReport
import Foundation

/// `cryptoreport-bench history-db PATH DAYS [--until-now]`: a history database holding DAYS
/// earlier days of the built-in real capture (450 markets), written one run at a time through the
/// store the binary uses, as a daily cron run writes it, for measuring reports and `history` over
/// long histories, and the database's size per day. Each day is the capture as the API sent it
/// with its times moved back a day each (prices unchanged: a random walk would give them 28-digit
/// mantissas no real price has), and the ECB rates under the date of the day before.
///
/// The days end the day before the capture, or with `--until-now` a day before now: `history`
/// counts its `--days` back from the clock, so a 3,650-day window holds all 3,650 days only then.
func makeHistoryDatabase(_ arguments: [String]) throws {
    guard arguments.count >= 2, let days = Int(arguments[1]), days > 0 else {
        print("usage: cryptoreport-bench history-db PATH DAYS [--until-now]")
        exit(64)
    }
    let path = arguments[0]
    let tickers = try TickerDecoder().decode(EmbeddedSample.tickers).tickers
    let rates = try ECBRatesParser().parseLatest(EmbeddedSample.rates)
    let captured = tickers.compactMap(\.updatedAt).max() ?? Date()
    // A second off the capture's own time, so that a report on the capture is never taken for a stored day.
    let anchor = arguments.contains("--until-now") ? Date().addingTimeInterval(-1) : captured.addingTimeInterval(-1)
    let store = try HistoryStore(path: path)
    let start = Date()
    for daysBack in stride(from: days, through: 1, by: -1) {
        let shift = -Double(daysBack) * 86400
        let time = anchor.addingTimeInterval(shift)
        let moved = tickers.map { ticker in
            var moved = ticker
            moved.updatedAt = ticker.updatedAt.map { $0.addingTimeInterval(time.timeIntervalSince(captured)) }
            return moved
        }
        var dayRates = rates
        dayRates.date = ReportDates.day(time.addingTimeInterval(-86400))
        try store.record(Snapshot(sourceTime: time, fetchedAt: time, tickers: moved, rates: dayRates))
    }
    let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    print(
        "\(path): \(days) days of \(tickers.count) markets in \(String(format: "%.0f", Date().timeIntervalSince(start))) s, "
            + "\(bytes) bytes, \(bytes / days) bytes a day")
}
