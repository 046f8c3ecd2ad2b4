import Foundation
import Testing

@testable import CryptoReport

/// A week of daily runs into one folder (synthetic days: the real sample with its ticker times
/// moved by whole days): `index.html` lists exactly the reports present, newest first, with
/// working relative links; the `latest` copies follow the newest run, survive a failed run and
/// a replay of an older day, and stay put with `--no-latest`.
@Suite("Sharing the daily folder: index.html and latest names", .serialized)
struct SharedFolderTests {
    /// The real capture's tickers, `days` later.
    static func tickers(daysLater days: Int, in folder: URL) throws -> URL {
        var objects = try #require(try JSONSerialization.jsonObject(with: Fixtures.tickers) as? [[String: Any]])
        for index in objects.indices {
            // Sent as a string of milliseconds.
            if let at = (objects[index]["at"] as? String).flatMap({ Int64($0) }) { objects[index]["at"] = String(at + Int64(days) * 86_400_000) }
        }
        let url = folder.appendingPathComponent("tickers-\(days).json")
        try JSONSerialization.data(withJSONObject: objects).write(to: url)
        return url
    }

    /// One cron run on day `days` after the sample's.
    @discardableResult
    static func run(
        day days: Int, currency: CurrencyCode = "SEK", formats: [ReportFormat] = ReportFormat.reports, latest: Bool = true,
        alerts: [AlertRule] = [], tickers: URL? = nil, in folder: TemporaryFolder
    ) async throws -> ReportPipeline.Outcome {
        var settings = Settings()
        settings.report.currency = currency
        settings.report.alerts = alerts
        settings.fetch.tickers = .file(try tickers?.path ?? Self.tickers(daysLater: days, in: folder.url).path)
        settings.fetch.rates = .file(Fixtures.ratesURL.path)
        settings.fetch.allowStale = true
        settings.output.destination = .directory(folder.url.appendingPathComponent("out").path)
        settings.output.formats = formats
        settings.output.latest = latest
        settings.output.noHistory = true
        let clock = FixedClock(Fixtures.reportTime.addingTimeInterval(Double(days) * 86_400))
        return try await ReportPipeline(clock: clock).run(settings)
    }

    struct IndexRow: Equatable {
        var date: String
        var currency: String
        var links: [String]
    }

    /// The rows of the index's Reports table, read from the HTML.
    static func indexRows(_ html: String) throws -> [IndexRow] {
        let body = try #require(html.components(separatedBy: "<tbody>").last?.components(separatedBy: "</tbody>").first)
        return body.components(separatedBy: "<tr>").dropFirst().map { row in
            IndexRow(
                date: Self.matches(#"<th scope="row">([^<]*)</th>"#, in: row).first ?? "",
                currency: Self.matches(#"<td>([A-Z]{3})</td>"#, in: row).first ?? "",
                links: Self.matches(#"href="([^"]*)""#, in: row))
        }
    }

    static func matches(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    static func read(_ folder: TemporaryFolder, _ name: String) throws -> String {
        try String(decoding: Data(contentsOf: folder.url.appendingPathComponent("out/\(name)")), as: UTF8.self)
    }

    /// What the index must list: every dated report in the folder, grouped, newest first.
    static func expectedRows(_ folder: TemporaryFolder) -> [IndexRow] {
        let names = folder.contents("out").compactMap(ReportFileName.init(parsing:))
        let groups = Dictionary(grouping: names) { "\($0.date) \($0.currency)" }
        return groups.values.map { files in
            let formats = files.compactMap { file -> ReportFileName? in
                if case let .report(format) = file.kind { return ReportFileName(date: file.date, currency: file.currency, kind: .report(format)) }
                return nil
            }
            .sorted { left, right in
                guard case let .report(l) = left.kind, case let .report(r) = right.kind else { return false }
                return l < r
            }
            return IndexRow(
                date: files[0].date, currency: files[0].currency,
                links: formats.map(\.name) + files.filter { $0.kind == .alerts }.map(\.name))
        }
        .sorted { ($0.date, $1.currency) > ($1.date, $0.currency) }
    }

    @Test("a week of runs: the index lists exactly the reports present, newest first, every link a file of the folder")
    func weekOfRuns() async throws {
        let folder = try TemporaryFolder()
        for day in 0..<7 {
            try await Self.run(day: day, in: folder)
            if day % 3 == 0 { try await Self.run(day: day, currency: "USD", formats: [.csv, .ledger], in: folder) }
        }
        let html = try Self.read(folder, "index.html")
        let rows = try Self.indexRows(html)
        #expect(rows.count == 7 + 3)
        #expect(rows == Self.expectedRows(folder))
        #expect(rows.first?.date == "2022-11-28" && rows.last?.date == "2022-11-22")
        #expect(rows.first(where: { $0.currency == "USD" })?.links == ["cryptoreport-2022-11-28-USD.csv", "cryptoreport-2022-11-28-USD.ledger"])
        let present = Set(folder.allContents("out"))
        for link in Self.matches(#"href="([^"]*)""#, in: html) {
            #expect(present.contains(link), "\(link) is linked but not in the folder")
            #expect(!link.contains("/") && !link.contains(":"), "\(link) is not a relative link to the folder")
        }
        // Self-contained: the report's stylesheet inline, nothing fetched.
        #expect(html.contains("<style>") && html.contains("--accent"))
        for outside in ["src=", "<link", "@import", "url(", "<script"] {
            #expect(!html.contains(outside), "the index loads something: \(outside)")
        }
        // The summary of the run that wrote it (the USD one, last on day 6), worded as the report
        // words it, in its locale.
        #expect(html.contains("Breadth (24 h), 2022-11-28"))
        #expect(html.contains("INR premium"))
        #expect(html.contains("Top gainers (USD)"))
        #expect(html.contains("Numbers formatted for English (United States)."))

        // A deleted report is gone from the next index.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("out/cryptoreport-2022-11-23-SEK.html"))
        for format in ["csv", "md", "json"] {
            try FileManager.default.removeItem(at: folder.url.appendingPathComponent("out/cryptoreport-2022-11-24-SEK.\(format)"))
        }
        try await Self.run(day: 6, in: folder)
        let afterHTML = try Self.read(folder, "index.html")
        #expect(afterHTML.contains("Största vinnare (SEK)") && afterHTML.contains("Siffror formaterade för svenska (Sverige)."), "a SEK index is Swedish")
        let after = try Self.indexRows(afterHTML)
        #expect(after == Self.expectedRows(folder))
        #expect(after.first { $0.date == "2022-11-23" }?.links.contains("cryptoreport-2022-11-23-SEK.html") == false)
        #expect(after.first { $0.date == "2022-11-24" }?.links == ["cryptoreport-2022-11-24-SEK.html"])
    }

    @Test("a two-currency page is linked under its second currency too, opening in it; an earlier day's page as well")
    func secondCurrencyLinked() async throws {
        let folder = try TemporaryFolder()
        func twoCurrencies(day: Int, formats: [ReportFormat]) async throws {
            var settings = Settings()
            settings.report.currencies = ["SEK", "USD"]
            settings.fetch.tickers = .file(try Self.tickers(daysLater: day, in: folder.url).path)
            settings.fetch.rates = .file(Fixtures.ratesURL.path)
            settings.fetch.allowStale = true
            settings.output.destination = .directory(folder.url.appendingPathComponent("out").path)
            settings.output.formats = formats
            settings.output.noHistory = true
            _ = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime.addingTimeInterval(Double(day) * 86_400))).run(settings)
        }
        try await twoCurrencies(day: 0, formats: [.csv, .html])
        // The page says which currencies it holds, for the next run's index.
        #expect(try Self.read(folder, "cryptoreport-2022-11-22-SEK.html").contains("<meta name=\"cryptoreport-currencies\" content=\"SEK USD\">"))
        var rows = try Self.indexRows(try Self.read(folder, "index.html"))
        #expect(rows.first { $0.currency == "USD" }?.links == ["cryptoreport-2022-11-22-USD.csv", "cryptoreport-2022-11-22-SEK.html#cur=USD"])
        #expect(rows.first { $0.currency == "SEK" }?.links == ["cryptoreport-2022-11-22-SEK.csv", "cryptoreport-2022-11-22-SEK.html"])
        #expect(
            try Self.read(folder, "index.html").contains(
                "<li>USD: <a href=\"cryptoreport-latest-USD.csv\">CSV</a> <a href=\"cryptoreport-latest-SEK.html#cur=USD\">HTML</a> </li>"))

        // The next day, HTML alone: USD has a row with its page only; the day before keeps its
        // link, read from that page's head; a one-currency page of a third day links nothing more.
        try await twoCurrencies(day: 1, formats: [.html])
        try await Self.run(day: 2, currency: "SEK", formats: [.html], in: folder)
        let html = try Self.read(folder, "index.html")
        rows = try Self.indexRows(html)
        #expect(
            rows.filter { $0.currency == "USD" }.map(\.links) == [
                ["cryptoreport-2022-11-23-SEK.html#cur=USD"], ["cryptoreport-2022-11-22-USD.csv", "cryptoreport-2022-11-22-SEK.html#cur=USD"],
            ])
        #expect(rows.filter { $0.date == "2022-11-24" }.map(\.currency) == ["SEK"])
        #expect(html.contains("<a href=\"cryptoreport-latest-USD.csv\">CSV</a> </li>"), "the newest SEK page holds no USD: the latest USD is its CSV")
        let present = Set(folder.allContents("out"))
        for link in Self.matches(#"href="([^"]*)""#, in: html) {
            #expect(present.contains(String(link.split(separator: "#")[0])), "\(link) is linked but not in the folder")
        }
    }

    @Test("latest copies follow the newest run; a failed run, a replay of an older day and --no-latest leave them")
    func latestNames() async throws {
        let folder = try TemporaryFolder()
        for day in 0..<3 { try await Self.run(day: day, formats: [.csv, .html, .ledger], in: folder) }
        let newest = try Self.read(folder, "cryptoreport-2022-11-24-SEK.csv")
        #expect(try Self.read(folder, "cryptoreport-latest-SEK.csv") == newest)
        #expect(try Self.read(folder, "cryptoreport-latest-SEK.ledger") == Self.read(folder, "cryptoreport-2022-11-24-SEK.ledger"))
        #expect(try Self.read(folder, "cryptoreport-latest-SEK.html") == Self.read(folder, "cryptoreport-2022-11-24-SEK.html"))
        #expect(!folder.allContents("out").contains("cryptoreport-latest-SEK.md"), "only the formats written")
        let index = try Self.read(folder, "index.html")

        // A failed run changes nothing.
        await #expect(throws: (any Error).self) {
            try await Self.run(day: 3, tickers: folder.url.appendingPathComponent("missing.json"), in: folder)
        }
        #expect(try Self.read(folder, "cryptoreport-latest-SEK.csv") == newest)
        #expect(try Self.read(folder, "index.html") == index)

        // Replaying an older day: its reports are rewritten, the latest names stay on the newest.
        try await Self.run(day: 1, formats: [.csv], in: folder)
        #expect(try Self.read(folder, "cryptoreport-latest-SEK.csv") == newest)

        // --no-latest: a newer day's reports are written, the latest copies left as they were.
        try await Self.run(day: 3, formats: [.csv], latest: false, in: folder)
        #expect(try Self.read(folder, "cryptoreport-latest-SEK.csv") == newest)
        #expect(try Self.indexRows(Self.read(folder, "index.html")).first?.date == "2022-11-25")

        // The next run takes them over.
        try await Self.run(day: 4, formats: [.csv], in: folder)
        #expect(try Self.read(folder, "cryptoreport-latest-SEK.csv") == Self.read(folder, "cryptoreport-2022-11-26-SEK.csv"))
        // Another currency has latest names of its own.
        try await Self.run(day: 2, currency: "USD", formats: [.csv], in: folder)
        #expect(try Self.read(folder, "cryptoreport-latest-USD.csv") == Self.read(folder, "cryptoreport-2022-11-24-USD.csv"))
        #expect(try Self.read(folder, "cryptoreport-latest-SEK.csv") == Self.read(folder, "cryptoreport-2022-11-26-SEK.csv"))
    }

    @Test("the latest alerts file and the index's alerts follow the newest run's alerts")
    func latestAlerts() async throws {
        let folder = try TemporaryFolder()
        let rule = try AlertRule(parsing: "btc above 1 SEK")
        try await Self.run(day: 0, formats: [.csv], alerts: [rule], in: folder)
        #expect(folder.allContents("out").contains("cryptoreport-latest-SEK-alerts.csv"))
        let index = try Self.read(folder, "index.html")
        #expect(index.contains("Larm från senaste körningen (2022-11-22, SEK)"))
        #expect(try Self.indexRows(index).first?.links == ["cryptoreport-2022-11-22-SEK.csv", "cryptoreport-2022-11-22-SEK-alerts.csv"])
        #expect(!index.contains("<a href=\"cryptoreport-2022-11-22-SEK.html#"), "a CSV-only run's alerts link to no page")
        // With the page, each alert opens its market there.
        try await Self.run(day: 0, formats: [.csv, .html], alerts: [rule], in: folder)
        #expect(try Self.read(folder, "index.html").contains("<li><a href=\"cryptoreport-2022-11-22-SEK.html#btcusdt\">btc above 1 SEK: BTC/USDT"))
        // A later CSV-only run of the same day: that page is an earlier run's, and may lack the markets.
        try await Self.run(day: 0, formats: [.csv], alerts: [rule], in: folder)
        #expect(try !Self.read(folder, "index.html").contains("<a href=\"cryptoreport-2022-11-22-SEK.html#"))
        try await Self.run(day: 1, formats: [.csv], in: folder)
        #expect(!folder.allContents("out").contains("cryptoreport-latest-SEK-alerts.csv"))
        #expect(try !Self.read(folder, "index.html").contains("Alerts of the latest run"))
        // The older day keeps its own alerts file, and the index its link.
        #expect(try Self.indexRows(Self.read(folder, "index.html")).last?.links.last == "cryptoreport-2022-11-22-SEK-alerts.csv")
    }

    @Test("report file names: dated reports parse, anything else does not")
    func fileNames() {
        #expect(ReportFileName(parsing: "cryptoreport-2022-11-22-SEK.csv") == ReportFileName(date: "2022-11-22", currency: "SEK", kind: .report(.csv)))
        #expect(ReportFileName(parsing: "cryptoreport-2022-11-22-SEK-alerts.csv")?.latestName == "cryptoreport-latest-SEK-alerts.csv")
        #expect(ReportFileName(parsing: "cryptoreport-2022-11-22-SEK.beancount")?.kind == .report(.beancount))
        for name in [
            "cryptoreport-latest-SEK.csv", "index.html", "history.sqlite", "cryptoreport-2022-11-22-SEK.pdf", "cryptoreport-2022-1-22-SEK.csv",
            "cryptoreport-2022-11-22-sek.csv", ".cryptoreport-2022-11-22-SEK.csv.1A2B3C4D.tmp",
        ] {
            #expect(ReportFileName(parsing: name) == nil, "\(name)")
        }
        // Only days of the calendar.
        for day in ["2024-02-29", "2000-02-29", "2022-12-31", "2022-01-01", "2022-04-30"] {
            #expect(ReportFileName(parsing: "cryptoreport-\(day)-SEK.csv")?.date == day, "\(day)")
        }
        for day in ["2022-13-45", "2023-02-29", "1900-02-29", "2022-04-31", "2022-00-10", "2022-12-00", "2022-06-31"] {
            #expect(ReportFileName(parsing: "cryptoreport-\(day)-SEK.csv") == nil, "\(day)")
        }
    }

    @Test("what only looks like a report is not listed: a folder or a link of a report's name, a day no calendar has; nor does it hold the latest copies back")
    func lookalikes() async throws {
        let folder = try TemporaryFolder()
        try await Self.run(day: 0, formats: [.csv], in: folder)
        let out = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out.appendingPathComponent("cryptoreport-2022-11-20-SEK.csv"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            at: out.appendingPathComponent("cryptoreport-2022-11-19-SEK.csv"), withDestinationURL: out.appendingPathComponent("cryptoreport-2022-11-22-SEK.csv")
        )
        // Later than any real day, as text: before, the newest day of the folder.
        try Data("x".utf8).write(to: out.appendingPathComponent("cryptoreport-2099-13-45-SEK.csv"))
        try await Self.run(day: 1, formats: [.csv], in: folder)
        #expect(try Self.indexRows(Self.read(folder, "index.html")).map(\.date) == ["2022-11-23", "2022-11-22"])
        #expect(try Self.read(folder, "cryptoreport-latest-SEK.csv") == Self.read(folder, "cryptoreport-2022-11-23-SEK.csv"))
    }

    /// Issue 32: a stray `cryptoreport-2099-01-01-SEK.csv` kept every latest copy on an older
    /// report from then on, and the index showed 2099 as the newest day.
    @Test("a file named for a day after the run's is no report: the latest copies move on, the index leaves it out, the run warns")
    func strayFutureReport() async throws {
        let folder = try TemporaryFolder()
        try await Self.run(day: 0, formats: [.csv], in: folder)
        let out = folder.url.appendingPathComponent("out")
        try Data("x".utf8).write(to: out.appendingPathComponent("cryptoreport-2099-01-01-SEK.csv"))
        try await Self.run(day: 1, formats: [.csv], in: folder)
        try await Self.run(day: 2, formats: [.csv], in: folder)
        #expect(try Self.read(folder, "cryptoreport-latest-SEK.csv") == Self.read(folder, "cryptoreport-2022-11-24-SEK.csv"))
        #expect(try Self.indexRows(Self.read(folder, "index.html")).map(\.date) == ["2022-11-24", "2022-11-23", "2022-11-22"])
        let report = try #require(try await Self.run(day: 2, formats: [.csv], in: folder).report as Report?)
        let shared = SharedFolder(directory: out, latest: true).additions(for: report, names: [], removing: [])
        #expect(shared.future == ["cryptoreport-2099-01-01-SEK.csv"])
        #expect(NoticeText.futureReports(shared.future, folder: "out").contains("dated after today"))
    }

    /// Issue 32: a stray file dated tomorrow (which a zone ahead makes possible) was still taken
    /// for the newest report: the latest copies stayed on the older one.
    @Test("a report-named file the folder's record does not hold, dated after the run's data, is no report: the latest copies move on, the run warns")
    func strayUnrecordedReport() async throws {
        let folder = try TemporaryFolder()
        try await Self.run(day: 0, formats: [.csv], in: folder)
        let out = folder.url.appendingPathComponent("out")
        let record = try Self.read(folder, SharedFolder.recordName)
        #expect(record.split(separator: "\n").dropFirst() == ["cryptoreport-2022-11-22-SEK.csv"])
        // Day 1's run may see reports dated up to day 2 (a zone ahead of UTC).
        try Data("x".utf8).write(to: out.appendingPathComponent("cryptoreport-2022-11-24-SEK.csv"))
        let outcome = try await Self.run(day: 1, formats: [.csv], in: folder)
        #expect(try Self.read(folder, "cryptoreport-latest-SEK.csv") == Self.read(folder, "cryptoreport-2022-11-23-SEK.csv"))
        #expect(try Self.indexRows(Self.read(folder, "index.html")).map(\.date) == ["2022-11-23", "2022-11-22"])
        let shared = SharedFolder(directory: out, latest: true).additions(for: outcome.report, names: [], removing: [])
        #expect(shared.unrecorded == ["cryptoreport-2022-11-24-SEK.csv"] && shared.future.isEmpty)
        let warning = NoticeText.unrecordedReports(shared.unrecorded, folder: "out", record: SharedFolder.recordName, day: outcome.report.dataDate)
        #expect(warning.contains("cryptoreport-2022-11-24-SEK.csv in out is dated after this run's data (2022-11-23)"))
        #expect(
            try Self.read(folder, SharedFolder.recordName).split(separator: "\n").dropFirst() == [
                "cryptoreport-2022-11-22-SEK.csv", "cryptoreport-2022-11-23-SEK.csv",
            ])
        // Older than the run's data, a file not in the record is a report copied in: listed.
        try Data("x".utf8).write(to: out.appendingPathComponent("cryptoreport-2022-11-20-SEK.csv"))
        try await Self.run(day: 1, formats: [.csv], in: folder)
        #expect(try Self.indexRows(Self.read(folder, "index.html")).map(\.date) == ["2022-11-23", "2022-11-22", "2022-11-20"])
    }

    /// A folder written before the record existed: every report in it counts, as before; a
    /// record that is a link is never read (nor followed when replaced): it vouches for nothing.
    @Test("without a record every report-named file of the folder counts; a record that is a link vouches for nothing and is replaced by a file")
    func withoutRecord() async throws {
        let folder = try TemporaryFolder()
        try await Self.run(day: 0, formats: [.csv], in: folder)
        let out = folder.url.appendingPathComponent("out")
        try FileManager.default.removeItem(at: out.appendingPathComponent(SharedFolder.recordName))
        try Data("x".utf8).write(to: out.appendingPathComponent("cryptoreport-2022-11-24-SEK.csv"))
        try await Self.run(day: 1, formats: [.csv], in: folder)
        #expect(try Self.indexRows(Self.read(folder, "index.html")).map(\.date) == ["2022-11-24", "2022-11-23", "2022-11-22"])
        #expect(try Self.read(folder, "cryptoreport-latest-SEK.csv") == Self.read(folder, "cryptoreport-2022-11-22-SEK.csv"))
        // A link as the record: not read, and the commit's rename replaces the link, not its target.
        let elsewhere = folder.url.appendingPathComponent("elsewhere.txt")
        try Data("cryptoreport-2022-11-25-SEK.csv\n".utf8).write(to: elsewhere)
        try FileManager.default.removeItem(at: out.appendingPathComponent(SharedFolder.recordName))
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent(SharedFolder.recordName), withDestinationURL: elsewhere)
        try Data("x".utf8).write(to: out.appendingPathComponent("cryptoreport-2022-11-25-SEK.csv"))
        #expect(SharedFolder.record(in: out) == [])
        try await Self.run(day: 2, formats: [.csv], in: folder)
        #expect(try String(contentsOf: elsewhere, encoding: .utf8) == "cryptoreport-2022-11-25-SEK.csv\n")
        #expect(try Self.read(folder, "cryptoreport-latest-SEK.csv") == Self.read(folder, "cryptoreport-2022-11-24-SEK.csv"))
        #expect(try !Self.read(folder, SharedFolder.recordName).contains("2022-11-25"))
        let attributes = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(SharedFolder.recordName).path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    }
}
