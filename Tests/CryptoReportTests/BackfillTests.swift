import Foundation
import Testing

@testable import CryptoReport

@Suite("Backfill from klines and the ECB 90-day file", .serialized, .timeLimit(.minutes(4)))
struct BackfillTests {
    typealias Response = LoopbackServer.Response

    /// Three primary markets; klines for 2025-02-20…22, days the real 90-day file covers.
    static let tickers = Fixtures.tickerJSON([
        Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "95000"),
        Fixtures.ticker("btcinr", base: "btc", quote: "inr", last: "8300000"),
        Fixtures.ticker("ethusdt", base: "eth", quote: "usdt", last: "2700"),
        Fixtures.ticker("wrxinr", base: "wrx", quote: "inr", last: "20"),
    ])
    static let days: [Double] = [1_740_009_600, 1_740_096_000, 1_740_182_400]  // 2025-02-20, 21, 22 00:00 UTC

    static func klines(_ closes: [String]) -> Data {
        let rows = zip(days, closes).map { time, close in "[\(Int(time)),\"\(close)\",\"\(close)\",\"\(close)\",\"\(close)\",\"12.5\"]" }
        return Data(("[" + rows.joined(separator: ",") + "]").utf8)
    }

    /// `options.days` is 3: three days back need four whole days, and today's kline comes too.
    static func path(_ symbol: String, limit: Int = 5) -> String { "/sapi/v1/klines?symbol=\(symbol)&interval=1d&limit=\(limit)" }

    static func server(wrx: Response? = nil, ethFirst: [Response] = []) throws -> LoopbackServer {
        try LoopbackServer(
            routes: [
                "/sapi/v1/tickers/24hr": Response(status: 200, body: tickers),
                "/hist.xml": Response(status: 200, body: try Fixtures.data(Fixtures.historyURL), contentType: "text/xml"),
                path("btcusdt"): Response(status: 200, body: klines(["96000", "97000", "98000"])),
                path("ethusdt"): Response(status: 200, body: klines(["2600", "2650", "2700"])),
                path("wrxinr"): wrx ?? Response(status: 200, body: klines(["19", "19.5", "20"])),
            ],
            sequences: [path("ethusdt"): ethFirst])
    }

    /// The tickers at `path`, the 90-day file, and `ethusdt`'s klines of two days (`--days 2`).
    static func server(tickersAt path: String, ethusdt: Response) throws -> LoopbackServer {
        try LoopbackServer(
            routes: [
                path: Response(status: 200, body: tickers),
                "/hist.xml": Response(status: 200, body: try Fixtures.data(Fixtures.historyURL), contentType: "text/xml"),
                Self.path("ethusdt", limit: 4): ethusdt,
            ])
    }

    static func options(_ server: LoopbackServer, retries: Int = 3) -> Backfiller.Options {
        var options = Backfiller.Options()
        options.days = 3
        options.apiBase = server.url("")
        options.ratesHistoryURL = server.url("/hist.xml")
        options.retry = RetryPolicy(retries: retries)
        options.timeout = 5
        return options
    }

    @Test("fills one run per day with each day's ECB rates; a 429 mid-way is waited out")
    func backfill() async throws {
        let server = try Self.server(ethFirst: [Response(status: 429, body: Data(), headers: ["Retry-After": "1"])])
        defer { server.stop() }
        let store = try HistoryStore()
        let sleeper = RecordingSleeper()
        let outcome = try await Backfiller(store: store, sleeper: sleeper).run(Self.options(server))
        #expect(outcome == Backfiller.Outcome(markets: 3, fetched: 3, skipped: 0, rateDays: 61))
        #expect(sleeper.recorded.contains(1), "Retry-After: 1 honoured")
        #expect(sleeper.recorded.allSatisfy { $0 >= 1 }, "never more than one request per second")
        let runs = try store.runs(in: Date(timeIntervalSince1970: 0)...Date())
        #expect(runs.count == 3)
        #expect(runs.allSatisfy { $0.kind == .backfill })
        let first = try store.snapshot(of: runs[0])
        #expect(first.tickers.map(\.symbol).sorted() == ["btcusdt", "ethusdt", "wrxinr"])
        #expect(first.rates?.date == "2025-02-20")
        // The series matches the stored closes at each day's rate.
        let points = try HistoryExporter(store: store).series(symbol: "btc", currency: "SEK", days: 3650, now: Date())
        #expect(points.count == 3)
        let sek = try #require(first.rates?.perEuro["SEK"])
        let usd = try #require(first.rates?.perEuro["USD"])
        #expect(points[0].row.price == 96000 * (sek / usd))
    }

    @Test("an interrupted backfill resumes where it stopped")
    func resume() async throws {
        let store = try HistoryStore()
        let broken = try Self.server(wrx: Response(status: 500, body: Data("down".utf8)))
        await #expect(throws: FetchError.httpStatus(source: .klines, location: broken.url(Self.path("wrxinr")), status: 500)) {
            try await Backfiller(store: store, sleeper: RecordingSleeper()).run(Self.options(broken, retries: 0))
        }
        broken.stop()
        #expect(try store.backfilled("btcusdt", days: 3, on: Date()))
        #expect(try store.backfilled("wrxinr", days: 3, on: Date()) == false)

        let healthy = try Self.server()
        defer { healthy.stop() }
        let outcome = try await Backfiller(store: store, sleeper: RecordingSleeper()).run(Self.options(healthy))
        #expect(outcome.fetched == 1 && outcome.skipped == 2)
        #expect(healthy.requests.map(\.path).filter { $0.hasPrefix("/sapi/v1/klines") } == [Self.path("wrxinr")])
    }

    @Test("a market the API refuses (400), or whose klines are all unreadable, is left out with a warning and not marked done; the others are filled")
    func marketsLeftOut() async throws {
        for wrx in [
            Response(status: 400, body: Data(#"{"code":-1121,"message":"Invalid symbol."}"#.utf8)),
            Response(status: 200, body: Data(#"[[1,2,3],[1740009600,"1","1","1","abc","5"],[1740096000,"1","1","1","-5","5"]]"#.utf8)),
            Response(status: 200, body: Data("<html><body>Just a moment...</body></html>".utf8)),
        ] {
            let server = try Self.server(wrx: wrx)
            defer { server.stop() }
            let store = try HistoryStore()
            let log = LogRecorder()
            var backfiller = Backfiller(store: store, sleeper: RecordingSleeper())
            backfiller.logger = log.logger
            let outcome = try await backfiller.run(Self.options(server))
            #expect(outcome.fetched == 2 && outcome.leftOut == 1, "\(outcome)")
            #expect(try store.backfilled("wrxinr", days: 3, on: Date()) == false, "tried again by the next backfill")
            #expect(try store.backfilled("ethusdt", days: 3, on: Date()), "the others are filled")
            #expect(log.messages.contains { $0.hasPrefix("backfill: wrxinr: ") && $0.contains("left out") }, "\(log.messages)")
        }
    }

    @Test("a backfill done on an earlier day is done again: it lacks the days since")
    func markersExpire() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let store = try HistoryStore()
        let monday = Date(timeIntervalSince1970: 1_740_355_200)  // 2025-02-24 00:00 UTC
        let first = try await Backfiller(store: store, clock: FixedClock(monday), sleeper: RecordingSleeper()).run(Self.options(server))
        #expect(first.fetched == 3)
        let sameDay = try await Backfiller(store: store, clock: FixedClock(monday.addingTimeInterval(3600)), sleeper: RecordingSleeper())
            .run(Self.options(server))
        #expect(sameDay.fetched == 0 && sameDay.skipped == 3)
        let nextDay = try await Backfiller(store: store, clock: FixedClock(monday.addingTimeInterval(86400)), sleeper: RecordingSleeper())
            .run(Self.options(server))
        #expect(nextDay.fetched == 3 && nextDay.skipped == 0)
    }

    @Test("only whole days are stored: today's kline, still moving, is left out")
    func incompleteDay() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let store = try HistoryStore()
        let noon = Date(timeIntervalSince1970: 1_740_182_400 + 12 * 3600)  // 2025-02-22 12:00 UTC
        _ = try await Backfiller(store: store, clock: FixedClock(noon), sleeper: RecordingSleeper()).run(Self.options(server))
        let runs = try store.runs(in: Date(timeIntervalSince1970: 0)...noon.addingTimeInterval(86400))
        #expect(runs.map { ReportDates.day($0.sourceTime) } == ["2025-02-20", "2025-02-21"])
    }

    @Test("a day older than every ECB rate on hand is left out with a warning, not priced at a later day's rates")
    func daysWithoutRates() async throws {
        let old = Data(#"[[1672531200,"1","1","1","17","5"],[1740009600,"19","19","19","19","5"]]"#.utf8)  // 2023-01-01, 2025-02-20
        let (ratesDates, messages) = try await Self.backfillWRX(klines: old)
        #expect(ratesDates == ["2025-02-20"])
        #expect(messages.contains("backfill: wrxinr: 1 day older than the ECB rates on hand (from 2024-11-28) were left out"))
    }

    @Test("a day more than a week after the newest ECB rates on hand is left out with a warning, not priced at that old day's rates")
    func daysPastRates() async throws {
        // 2025-02-20, 2025-03-04 and 2025-03-05: the 90-day file ends with the rates of 2025-02-25,
        // published that day at 15:00 UTC: six days and nine hours before 2025-03-04 00:00 UTC,
        // seven days and nine hours before 2025-03-05.
        let late = Data(#"[[1740009600,"19","19","19","19","5"],[1741046400,"21","21","21","21","5"],[1741132800,"22","22","22","22","5"]]"#.utf8)
        let (ratesDates, messages) = try await Self.backfillWRX(klines: late)
        #expect(ratesDates == ["2025-02-20", "2025-02-25"])
        #expect(messages.contains("backfill: wrxinr: 1 day more than a week after the newest ECB rates on hand (2025-02-25) were left out"), "\(messages)")
    }

    /// A backfill whose wrxinr klines are `klines`: the ECB dates its stored days were priced at,
    /// and the warnings it gave.
    static func backfillWRX(klines: Data) async throws -> (ratesDates: [String], messages: [String]) {
        let server = try Self.server(wrx: Response(status: 200, body: klines))
        defer { server.stop() }
        let store = try HistoryStore()
        let log = LogRecorder()
        var backfiller = Backfiller(store: store, sleeper: RecordingSleeper())
        backfiller.logger = log.logger
        _ = try await backfiller.run(Self.options(server))
        let points = try HistoryExporter(store: store).series(symbol: "wrxinr", currency: "SEK", days: 36500, now: Date())
        return (points.map(\.ratesDate), log.messages)
    }

    @Test("--api-url naming a folder of saved files reads tickers.json and klines-SYMBOL.json from it, a missing one left out with a warning")
    func savedFiles() async throws {
        let folder = try TemporaryFolder()
        try Self.tickers.write(to: folder.url.appendingPathComponent("tickers.json"))
        try Self.klines(["96000", "97000", "98000"]).write(to: folder.url.appendingPathComponent("klines-btcusdt.json"))
        try Self.klines(["2600", "2650", "2700"]).write(to: folder.url.appendingPathComponent("klines-ethusdt.json"))
        for base in [folder.url.path, folder.url.absoluteString] {
            var options = Backfiller.Options()
            options.days = 3
            options.apiBase = base
            options.ratesHistoryURL = Fixtures.historyURL.path
            let store = try HistoryStore()
            let log = LogRecorder()
            let sleeper = RecordingSleeper()
            var backfiller = Backfiller(store: store, sleeper: sleeper)
            backfiller.logger = log.logger
            let outcome = try await backfiller.run(options)
            #expect(outcome.fetched == 2, "\(base)")
            let btc = try HistoryExporter(store: store).series(symbol: "btcusdt", currency: "USD", days: 36500, now: Date())
            #expect(btc.count == 3, "\(base): \(btc)")
            #expect(log.messages.contains { $0.hasPrefix("backfill: wrxinr: ") && $0.contains("klines-wrxinr.json") }, "\(log.messages)")
            #expect(sleeper.recorded.isEmpty, "saved files are read with no pause")
        }
    }

    @Test("--symbols naming no market WazirX lists is a usage error; some unknown among known ones, a warning")
    func unknownSymbols() async throws {
        let server = try Self.server()
        defer { server.stop() }
        var options = Self.options(server)
        options.symbols = ["nosuchcoin"]
        await #expect(throws: SelectionError.nothingMatches(symbols: ["nosuchcoin"])) {
            try await Backfiller(store: try HistoryStore(), sleeper: RecordingSleeper()).run(options)
        }
        options.symbols = ["btc", "nosuchcoin"]
        let outcome = try await Backfiller(store: try HistoryStore(), sleeper: RecordingSleeper()).run(options)
        #expect(outcome.markets == 1)
    }

    /// The issue's promise: after `backfill --days 30` and a run, the report has its 7- and 30-day
    /// changes and a sparkline. A close is stamped at the end of its day, so a 30-day change needs
    /// the close of 31 days before the report's day.
    @Test("after backfill --days 30 and a run, every market has its 7- and 30-day change and a 30-day series")
    func backfillThenReport() async throws {
        let folder = try TemporaryFolder()
        let day: TimeInterval = 86400
        let today = Date(timeIntervalSince1970: 1_740_528_000)  // 2025-02-26 00:00 UTC, the day after the 90-day file ends
        let now = today.addingTimeInterval(7 * 3600)
        func klines(_ base: Double) -> Data {
            // 32 candles: 31 days back to today, whose kline is still moving.
            let rows = (0..<32).map { index -> String in
                let open = today.addingTimeInterval(Double(index - 31) * day)
                return "[\(Int(open.timeIntervalSince1970)),\"\(base)\",\"\(base)\",\"\(base)\",\"\(base + Double(index))\",\"5\"]"
            }
            return Data(("[" + rows.joined(separator: ",") + "]").utf8)
        }
        let tickers = Fixtures.tickerJSON([
            Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "200", at: String(Int(now.timeIntervalSince1970) * 1000)),
            Fixtures.ticker("wrxinr", base: "wrx", quote: "inr", last: "20", at: String(Int(now.timeIntervalSince1970) * 1000)),
        ])
        let server = try LoopbackServer(routes: [
            "/sapi/v1/tickers/24hr": Response(status: 200, body: tickers),
            "/hist.xml": Response(status: 200, body: try Fixtures.data(Fixtures.historyURL), contentType: "text/xml"),
            Self.path("btcusdt", limit: 32): Response(status: 200, body: klines(100)),
            Self.path("wrxinr", limit: 32): Response(status: 200, body: klines(10)),
        ])
        defer { server.stop() }
        let historyPath = folder.url.appendingPathComponent("history.sqlite").path
        var options = Self.options(server)
        options.days = 30
        _ = try await Backfiller(store: try HistoryStore(path: historyPath), clock: FixedClock(now), sleeper: RecordingSleeper()).run(options)

        let tickersFile = folder.url.appendingPathComponent("tickers.json")
        try tickers.write(to: tickersFile)
        var request = Settings()
        request.fetch.tickers = .at(tickersFile.path)
        request.fetch.rates = .at(Fixtures.historyURL.path, .rates)
        request.output.database = historyPath
        request.report.selection = Selection(markets: .all)
        request.output.destination = .directory(folder.url.appendingPathComponent("reports").path)
        request.output.formats = [.html]
        let report = try await ReportPipeline(clock: FixedClock(now)).run(request).report
        #expect(report.rows.count == 2)
        for row in report.rows {
            let trend = try #require(row.trend, "\(row.symbol)")
            #expect(trend.change7d != nil, "\(row.symbol): no 7-day change")
            #expect(trend.change30d != nil, "\(row.symbol): no 30-day change")
            // The 30-day basis (the close 30 to 31 days back), a close for each later day, then
            // today's price.
            #expect(trend.series.count == 32, "\(row.symbol): \(trend.series.count) points")
            #expect(Trend.percent(from: trend.series.first, to: row.price) == trend.change30d)
        }
        // btcusdt closed at 100 + index, candle 0 opening 31 days before today: its close, stamped
        // at the end of its day, is the latest between 31 and 30 days before the report. In USD at par.
        let btc = try #require(report.rows.first { $0.symbol == "btcusdt" }?.trend)
        #expect(btc.change30d == 100)
        // And a week back: candle 23 (close 123), the latest between 8 and 7 days before.
        #expect(btc.change7d == (200 - 123) / Decimal(123) * 100)
        let html = try ReportPipeline().render(report, as: .html, templates: try TemplateRenderer())
        #expect(html.components(separatedBy: "<svg").count - 1 >= 2, "a sparkline per row")
    }

    @Test("the streaming reader reads the real 90-day file like the tree parser")
    func streamingReader() throws {
        let data = try Fixtures.data(Fixtures.historyURL)
        let streamed = try ECBHistoryReader().read(data)
        let tree = try ECBRatesParser().parseDays(data)
        #expect(streamed.count == 61)
        #expect(streamed == tree)
        #expect(throws: DataError.self) { try ECBHistoryReader().read(Data("<!DOCTYPE x [<!ENTITY a 'b'>]><x/>".utf8)) }
        #expect(throws: DataError.self) { try ECBHistoryReader().read(Data("<a><b></a>".utf8)) }
    }

    @Test("klines: numbers or strings; bad rows dropped; error bodies are clear")
    func klines() throws {
        let decoded = try KlinesDecoder().decode(Data("[[1740009600,1,2,0.5,1.5,10],[\"x\"],[1740096000,\"1\",\"2\",\"1\",\"0\",\"3\"]]".utf8), symbol: "a")
        #expect(decoded.klines.count == 1 && decoded.unreadable == 2)
        #expect(decoded.klines.first?.close == Fixtures.decimal("1.5"))
        #expect(throws: DataError.apiError(source: .klines, code: "-1121", message: "Invalid symbol.")) {
            try KlinesDecoder().decode(Data(#"{"code":-1121,"message":"Invalid symbol."}"#.utf8), symbol: "a")
        }
    }

    @Test("a backfill that stores no day at all ends with exit 65, each market named in a warning")
    func nothingStored() throws {
        let server = try Self.server(
            tickersAt: "/sapi/v1/tickers/24hr",
            ethusdt: Response(status: 400, body: Data(#"{"code":-1121,"message":"Invalid symbol."}"#.utf8)))
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let run = try ExecutableTests.run(
            [
                "backfill", "--days", "2", "--symbols", "eth", "--history", "h.sqlite", "--no-config", "--api-url", server.url(""),
                "--ecb-history-url", server.url("/hist.xml"), "--retries", "0",
            ], in: folder.url)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("cryptoreport: warning: backfill: ethusdt: WazirX klines: "), "\(run.stderr)")
        #expect(
            run.stderr.hasSuffix("cryptoreport: backfill: no day of the 1 market could be stored (see the warnings); none is marked done.\n"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    /// It said "the output folder holds whole reports": a backfill writes none.
    @Test("a backfill stopped by Ctrl-C says its history holds whole days, not reports")
    func stoppedSaysDays() throws {
        let slow = Response(status: 200, body: Data("[]".utf8), delay: 5)
        let server = try LoopbackServer(routes: ["/sapi/v1/tickers/24hr": slow, "/hist.xml": slow])
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let process = Process()
        process.executableURL = ExecutableTests.binary
        process.arguments = [
            "backfill", "--days", "2", "--symbols", "eth", "--history", "h.sqlite", "--no-config", "--api-url", server.url(""),
            "--ecb-history-url", server.url("/hist.xml"),
        ]
        process.currentDirectoryURL = folder.url
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 0.5)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 130)
        #expect(stderr.hasSuffix("cryptoreport: stopped by SIGINT; no temporary file is left, and the history holds whole days.\n"), "\(stderr)")
    }

    @Test("progress: a bar on a terminal, plain lines otherwise")
    func progressLines() {
        #expect(BackfillProgress.line(done: 2, total: 4, symbol: "btcusdt", terminal: false) == "backfill: 2/4 btcusdt\n")
        #expect(BackfillProgress.line(done: 2, total: 4, symbol: "btcusdt", terminal: true).hasPrefix("\r███████████████░░░░░░░░░░░░░░░ 2/4"))
    }

    @Test("backfill reads the reports' settings: the file's tickers_url, retries, symbols and database; no_history refuses")
    func honoursTheSettings() throws {
        // The tickers come from the file's tickers_url, not the API's path; klines for one symbol.
        let server = try Self.server(tickersAt: "/elsewhere/tickers.json", ethusdt: Response(status: 503, body: Data("busy".utf8)))
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let config = folder.url.appendingPathComponent("config.toml")
        try Data(
            """
            tickers_url = "\(server.url("/elsewhere/tickers.json"))"
            retries = 0
            timeout = 5
            symbols = ["eth"]
            output = "reports"
            cache_dir = "cache"

            """.utf8
        ).write(to: config)
        let arguments = ["backfill", "--days", "2", "--config", config.path, "--api-url", server.url(""), "--ecb-history-url", server.url("/hist.xml")]
        let failed = try ExecutableTests.run(arguments, in: folder.url)
        // One klines request, no retry (the file's retries = 0), after the tickers from the file's URL.
        #expect(failed.status == 69, "\(failed.stderr)")
        #expect(failed.stderr.hasPrefix("cryptoreport: WazirX klines: "), "\(failed.stderr)")
        #expect(server.requests.map(\.path).filter { $0.contains("klines") } == [Self.path("ethusdt", limit: 4)])
        #expect(server.requests.contains { $0.path == "/elsewhere/tickers.json" })
        #expect(!server.requests.contains { $0.path == "/sapi/v1/tickers/24hr" })
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("reports/history.sqlite").path))
        // The request log is kept in the file's cache folder, shared with the reports.
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("cache").path))

        // no_history = true: nothing writes a history, backfill included, unless --history names one.
        try Data("no_history = true\noutput = \"off\"\n".utf8).write(to: config)
        let refused = try ExecutableTests.run(arguments, in: folder.url)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("history is switched off"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("off").path))
    }
}
