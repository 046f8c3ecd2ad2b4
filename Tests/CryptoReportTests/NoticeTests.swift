import Foundation
import GRDB
import Synchronization
import Testing

@testable import CryptoReport

/// `--notify` and `--notify-command`: a notice when an alert starts to fire, kept when it
/// cannot be delivered, sent late by the next run.
@Suite("Notices of fired alerts", .serialized, .timeLimit(.minutes(3)))
struct NoticeTests {
    /// A webhook that records what it is sent and answers `status`.
    final class Receiver: HTTPClient {
        let posts = Mutex<[Data]>([])
        /// Each post's URL, in order.
        let urls = Mutex<[String]>([])
        let status: Int
        /// URLs answered 500, whatever `status` says.
        let failing: Set<String>

        init(status: Int = 200, failing: Set<String> = []) {
            self.status = status
            self.failing = failing
        }

        func get(_ url: URL, timeout: TimeInterval, maximumBytes: Int, source: DataSource) async throws -> HTTPResponse {
            throw FetchError.unreachable(source: source, location: url.absoluteString, reason: "no feed here")
        }

        func post(_ url: URL, json: Data, timeout: TimeInterval, source: DataSource) async throws -> HTTPResponse {
            posts.withLock { $0.append(json) }
            urls.withLock { $0.append(url.absoluteString) }
            return HTTPResponse(status: failing.contains(url.absoluteString) ? 500 : status, body: Data())
        }

        var texts: [String] {
            posts.withLock { $0 }.compactMap { (try? JSONSerialization.jsonObject(with: $0) as? [String: Any])?["text"] as? String }
        }

        /// The texts posted to `url`, in order.
        func texts(to url: String) -> [String] {
            zip(urls.withLock { $0 }, posts.withLock { $0 }).compactMap { posted, body in
                guard posted == url else { return nil }
                return (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["text"] as? String
            }
        }
    }

    /// A command that records its input and environment instead of running.
    final class Commands: CommandRunning {
        let runs = Mutex<[(input: String, alerts: String)]>([])
        let failure: String?

        init(failure: String? = nil) { self.failure = failure }

        func run(_ command: String, input: Data, environment: [String: String], timeLimit: TimeInterval) async -> String? {
            runs.withLock { $0.append((String(decoding: input, as: UTF8.self), environment["CRYPTOREPORT_ALERTS"] ?? "")) }
            return failure
        }
    }

    static func policy(everyRun: Bool = false, command: Bool = false) throws -> NoticePolicy {
        var policy = NoticePolicy()
        policy.urls = [try #require(URL(string: "https://hooks.example/alerts"))]
        policy.command = command ? "mail -s alerts me@example.org" : nil
        policy.everyRun = everyRun
        policy.linkBase = "https://reports.example/crypto"
        return policy
    }

    /// A sample run into `folder` with a history, its alert on BTC firing.
    static func run(in folder: TemporaryFolder) async throws -> (ReportPipeline, ReportPipeline.Outcome, String) {
        var settings = Settings()
        settings.fetch.sample = true
        settings.report.alerts = [try AlertRule(parsing: "btc above 1000 USD")]
        settings.output.destination = .directory(folder.url.appendingPathComponent("out").path)
        let database = folder.url.appendingPathComponent("history.sqlite").path
        settings.output.database = database
        settings.output.formats = [.csv, .html]
        let pipeline = ReportPipeline(clock: FixedClock(Fixtures.reportTime))
        let outcome = try await pipeline.run(settings.report, fetch: settings.fetch, output: settings.output)
        #expect(outcome.report.alerts.count == 1)
        return (pipeline, outcome, database)
    }

    /// An earlier report run in the history, with the alerts it fired.
    static func recordEarlier(_ database: String, fired: [String]) throws {
        let store = try HistoryStore(path: database)
        var earlier = Snapshot(
            sourceTime: Fixtures.captureTime.addingTimeInterval(-86400), fetchedAt: Fixtures.captureTime.addingTimeInterval(-86400),
            tickers: [], rates: try ECBRatesParser().parseLatest(try Fixtures.rates))
        earlier.firedAlerts = fired
        try store.record(earlier)
    }

    @Test("an alert that starts to fire is sent once: text in the report's style with the page's link, and the JSON webhooks read")
    func firstCrossing() async throws {
        let folder = try TemporaryFolder()
        let (pipeline, outcome, database) = try await Self.run(in: folder)
        let receiver = Receiver()
        let commands = Commands()
        let warnings = await pipeline.notify(
            outcome, delivery: NoticeDelivery(policy: try Self.policy(command: true), http: receiver, commands: commands), historyPath: database)
        #expect(warnings.isEmpty, "\(warnings)")
        let body = try #require(receiver.posts.withLock { $0.first })
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let text = try #require(json["text"] as? String)
        #expect(text.hasPrefix("btc above 1000 USD: BTC/USDT"), "\(text)")
        #expect(text.hasSuffix(" https://reports.example/crypto/cryptoreport-2022-11-22-USD.html#btcusdt"), "\(text)")
        let alerts = try #require(json["alerts"] as? [[String: Any]])
        #expect(alerts.count == 1 && alerts.first?["symbol"] as? String == "btcusdt" && alerts.first?["value"] as? String == "15988")
        let ran = try #require(commands.runs.withLock { $0.first })
        #expect(ran.input == text + "\n")
        #expect(ran.alerts == String(decoding: body, as: UTF8.self))
    }

    @Test("an alert that stays fired sends nothing; --notify-every-run sends it again")
    func staysFired() async throws {
        let folder = try TemporaryFolder()
        let database = folder.url.appendingPathComponent("history.sqlite").path
        try Self.recordEarlier(database, fired: ["btc above 1000 USD\tbtcusdt"])
        let (pipeline, outcome, _) = try await Self.run(in: folder)
        let quiet = Receiver()
        _ = await pipeline.notify(outcome, delivery: NoticeDelivery(policy: try Self.policy(), http: quiet, commands: Commands()), historyPath: database)
        #expect(quiet.posts.withLock { $0.count } == 0)
        let every = Receiver()
        _ = await pipeline.notify(
            outcome, delivery: NoticeDelivery(policy: try Self.policy(everyRun: true), http: every, commands: Commands()), historyPath: database)
        #expect(every.posts.withLock { $0.count } == 1)
    }

    @Test("a notice that fails is kept with the history, said in a warning, and sent late by the next run")
    func keptAndSentLate() async throws {
        let folder = try TemporaryFolder()
        let (pipeline, outcome, database) = try await Self.run(in: folder)
        let failing = Receiver(status: 500)
        let warnings = await pipeline.notify(
            outcome, delivery: NoticeDelivery(policy: try Self.policy(), http: failing, commands: Commands()), historyPath: database)
        #expect(
            warnings == [
                "Notice: https://hooks.example/alerts answered HTTP 500 Internal Server Error; the notice is kept and sent by the next run"
            ])
        #expect(try HistoryStore(path: database).pendingNotices().count == 1)
        let working = Receiver()
        let next = await pipeline.notify(
            outcome, delivery: NoticeDelivery(policy: try Self.policy(), http: working, commands: Commands()), historyPath: database)
        #expect(next.isEmpty, "\(next)")
        // The kept notice, late; the alert itself is new again (no earlier run fired it), so sent too.
        let texts = working.texts
        #expect(texts.first?.hasPrefix("(late, from \(ReportDates.minute(Fixtures.reportTime))) btc above 1000 USD: BTC/USDT") == true, "\(texts)")
        #expect(texts.count == 2)
        #expect(try HistoryStore(path: database).pendingNotices().isEmpty)
    }

    /// Issue 32: text from a shared history reached a command's standard input and a webhook raw.
    @Test("a kept notice not in the tool's own form (an escape sequence, no list of alerts) is dropped unsent, and said")
    func hostileKeptNotice() async throws {
        let folder = try TemporaryFolder()
        let (pipeline, outcome, database) = try await Self.run(in: folder)
        let store = try HistoryStore(path: database)
        let earlier = Fixtures.reportTime.addingTimeInterval(-3600)
        try store.keepNotice(text: "btc \u{1B}[2J above", alerts: "[]", at: earlier, for: ["url \(Self.first)"])
        try store.keepNotice(text: "plain words", alerts: "{\"not\":\"a list\"}", at: earlier, for: ["url \(Self.first)"])
        let working = Receiver()
        let warnings = await pipeline.notify(
            outcome, delivery: NoticeDelivery(policy: try Self.policy(), http: working, commands: Commands()), historyPath: database)
        #expect(warnings.filter { $0.contains("is not in the tool's own form") }.count == 2, "\(warnings)")
        #expect(!working.texts.contains { $0.contains("\u{1B}") || $0.contains("plain words") }, "\(working.texts)")
        #expect(try store.pendingNotices().isEmpty)
        // A right-to-left locale's numbers carry direction marks: the tool's own, kept.
        let marked = HistoryStore.PendingNotice(id: 1, target: nil, createdAt: earlier, text: "btc \u{200F}1\u{00A0}000,00 \u{061C}$", alerts: "[]")
        #expect(marked.isOwnForm)
    }

    @Test("without a history a failed notice is lost, and said so; a failing command is named")
    func noHistory() async throws {
        let folder = try TemporaryFolder()
        let (pipeline, outcome, _) = try await Self.run(in: folder)
        let warnings = await pipeline.notify(
            outcome,
            delivery: NoticeDelivery(policy: try Self.policy(command: true), http: Receiver(status: 404), commands: Commands(failure: "it exited with 3")),
            historyPath: nil)
        #expect(
            warnings == [
                "Notice: https://hooks.example/alerts answered HTTP 404 Not Found; the notice is lost, as the run keeps no history",
                "Notice: the command mail -s alerts me@example.org failed: it exited with 3; the notice is lost, as the run keeps no history",
            ])
    }

    @Test("over loopback HTTP: a 200 takes it, a 500 and a receiver that hangs are warnings", .timeLimit(.minutes(1)))
    func loopback() async throws {
        let server = try LoopbackServer(routes: [
            "/ok": .init(status: 200, body: Data("ok".utf8)), "/broken": .init(status: 500, body: Data()),
            "/hang": .init(status: 200, body: Data(), delay: 30),
        ])
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let (pipeline, outcome, _) = try await Self.run(in: folder)
        var policy = NoticePolicy()
        policy.urls = try ["/ok", "/broken", "/hang"].map { try #require(URL(string: server.url($0))) }
        let warnings = await pipeline.notify(outcome, policy: policy, historyPath: nil)
        #expect(
            warnings == [
                "Notice: \(server.url("/broken")) answered HTTP 500 Internal Server Error; the notice is lost, as the run keeps no history",
                "Notice: no answer from \(server.url("/hang")) within 10 s; the notice is lost, as the run keeps no history",
            ])
        #expect(server.requests.map(\.path) == ["/ok", "/broken", "/hang"])
    }

    @Test("the shell runs the command with the text on standard input and the JSON in CRYPTOREPORT_ALERTS")
    func shell() async throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("got").path
        let ran = await ShellCommandRunner().run(
            "cat > '\(out)'; printf %s \"$CRYPTOREPORT_ALERTS\" > '\(out).json'", input: Data("one line\n".utf8), environment: ["CRYPTOREPORT_ALERTS": "[1]"],
            timeLimit: 10)
        #expect(ran == nil)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "one line\n")
        #expect(try String(contentsOfFile: out + ".json", encoding: .utf8) == "[1]")
        #expect(await ShellCommandRunner().run("exit 3", input: Data(), environment: [:], timeLimit: 10) == "it exited with 3")
    }

    @Test("a --notify that is not an http(s) URL, or an empty command, is a settings error")
    func badSettings() throws {
        #expect(throws: InvalidSettingValue.self) { try SettingsLayer.key("notify")?.rule.text("ftp://example.org/x") }
        #expect(throws: InvalidSettingValue.self) { try SettingsLayer.key("notify")?.rule.text("not a url") }
        #expect(throws: InvalidSettingValue.self) { try SettingsLayer.key("link_base")?.rule.text("reports/") }
        #expect(throws: InvalidSettingValue.self) { try SettingsLayer.key("notify_command")?.rule.text("") }
        // A URL's commas are its own: one flag, one URL.
        #expect(
            (try SettingsLayer.key("notify")?.rule.text("https://hooks.example/x?tags=a,b") as? [URL])?.map(\.absoluteString) == [
                "https://hooks.example/x?tags=a,b"
            ])
        let file = try ConfigFileReader().parse("notify = \"https://hooks.example/x?tags=a,b\"\n", path: "c.toml")
        #expect(Settings(layers: [file]).notices.urls.count == 1)
    }

    @Test("a second run on the same data (a stuck feed) notifies nothing new")
    func sameData() async throws {
        let folder = try TemporaryFolder()
        let (pipeline, first, database) = try await Self.run(in: folder)
        let receiver = Receiver()
        _ = await pipeline.notify(first, delivery: NoticeDelivery(policy: try Self.policy(), http: receiver, commands: Commands()), historyPath: database)
        #expect(receiver.posts.withLock { $0.count } == 1)
        // The same snapshot again, fetched later.
        var settings = Settings()
        settings.fetch.sample = true
        settings.report.alerts = [try AlertRule(parsing: "btc above 1000 USD")]
        settings.output.destination = .directory(folder.url.appendingPathComponent("out").path)
        settings.output.database = database
        settings.output.formats = [.csv]
        let later = ReportPipeline(clock: FixedClock(Fixtures.reportTime.addingTimeInterval(3600)))
        let second = try await later.run(settings.report, fetch: settings.fetch, output: settings.output)
        _ = await later.notify(second, delivery: NoticeDelivery(policy: try Self.policy(), http: receiver, commands: Commands()), historyPath: database)
        #expect(receiver.posts.withLock { $0.count } == 1, "the alert was sent by the first run on this data")
    }

    @Test("alerts price their currency with the report's usd_stablecoins: USDT not at par is not priced as if it were")
    func stablecoins() async throws {
        let folder = try TemporaryFolder()
        var settings = Settings()
        settings.fetch.sample = true
        settings.report.stablecoins = ["usdc"]
        settings.report.alerts = [try AlertRule(parsing: "btcusdt below 16000 USD")]
        settings.output.destination = .directory(folder.url.appendingPathComponent("out").path)
        settings.output.formats = [.csv]
        let outcome = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).run(settings.report, fetch: settings.fetch, output: settings.output)
        let btc = try #require(outcome.report.rows.first { $0.symbol == "btcusdt" })
        #expect(btc.price > 16000, "priced through USDT/INR, not at par: \(btc.price)")
        #expect(outcome.report.alerts.isEmpty, "\(outcome.report.alerts)")
    }

    @Test("a command past its time limit is stopped with what it started; one that never reads its input holds nothing")
    func commandStopped() async throws {
        let folder = try TemporaryFolder()
        let mark = folder.url.appendingPathComponent("mark").path
        let said = await ShellCommandRunner().run(
            "(sleep 2; touch '\(mark)') & sleep 30", input: Data(repeating: 65, count: 1 << 20), environment: [:], timeLimit: 1)
        #expect(said == "it did not finish within 1 s")
        try await Task.sleep(for: .seconds(3))
        #expect(!FileManager.default.fileExists(atPath: mark), "the command's own child was stopped too")
    }

    static let first = "https://hooks.example/alerts"
    static let second = "https://chat.example/hook"

    /// Two webhooks and, with `command`, the command.
    static func twoTargets(command: Bool = false) throws -> NoticePolicy {
        var policy = try Self.policy(command: command)
        policy.urls.append(try #require(URL(string: second)))
        return policy
    }

    @Test("a notice one of two targets missed is kept for that one, and sent late to it alone")
    func perTarget() async throws {
        let folder = try TemporaryFolder()
        let (pipeline, outcome, database) = try await Self.run(in: folder)
        let commands = Commands()
        let warnings = await pipeline.notify(
            outcome, delivery: NoticeDelivery(policy: try Self.twoTargets(command: true), http: Receiver(failing: [Self.second]), commands: commands),
            historyPath: database)
        #expect(warnings == ["Notice: \(Self.second) answered HTTP 500 Internal Server Error; the notice is kept and sent by the next run"])
        #expect(try HistoryStore(path: database).pendingNotices().map(\.target) == ["url \(Self.second)"])
        let working = Receiver()
        let later = Commands()
        let next = await pipeline.notify(
            outcome, delivery: NoticeDelivery(policy: try Self.twoTargets(command: true), http: working, commands: later), historyPath: database)
        #expect(next.isEmpty, "\(next)")
        // The alert is new again (no earlier run fired it): each target is sent it, and only the
        // one that missed the first is sent that late.
        let late = "(late, from \(ReportDates.minute(Fixtures.reportTime))) "
        #expect(working.texts(to: Self.first).count == 1 && working.texts(to: Self.first).allSatisfy { !$0.hasPrefix(late) }, "\(working.texts)")
        #expect(working.texts(to: Self.second).count == 2 && working.texts(to: Self.second).first?.hasPrefix(late) == true, "\(working.texts)")
        #expect(later.runs.withLock { $0.count } == 1 && later.runs.withLock { $0 }.allSatisfy { !$0.input.hasPrefix(late) })
        #expect(try HistoryStore(path: database).pendingNotices().isEmpty)
    }

    @Test("over loopback HTTP: the receiver that failed is sent the late notice, the one that took it is not")
    func perTargetLoopback() async throws {
        let server = try LoopbackServer(
            routes: ["/ok": .init(status: 200, body: Data()), "/flaky": .init(status: 200, body: Data())],
            sequences: ["/flaky": [.init(status: 503, body: Data())]])
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let (pipeline, outcome, database) = try await Self.run(in: folder)
        var policy = NoticePolicy()
        policy.urls = try ["/ok", "/flaky"].map { try #require(URL(string: server.url($0))) }
        let warnings = await pipeline.notify(outcome, policy: policy, historyPath: database)
        #expect(warnings == ["Notice: \(server.url("/flaky")) answered HTTP 503 Service Unavailable; the notice is kept and sent by the next run"])
        let next = await pipeline.notify(outcome, policy: policy, historyPath: database)
        #expect(next.isEmpty, "\(next)")
        // The second run: the late notice to /flaky alone, then the alert (new again) to both.
        #expect(server.requests.map(\.path) == ["/ok", "/flaky", "/flaky", "/ok", "/flaky"])
    }

    @Test("a notice kept before notices were kept per target is sent to every target, and kept for each that missed it")
    func keptForEveryTarget() async throws {
        let folder = try TemporaryFolder()
        let (pipeline, outcome, database) = try await Self.run(in: folder)
        let store = try HistoryStore(path: database)
        try await store.database.write { db in
            try db.execute(
                sql: "INSERT INTO pending_notice (created_at, text, alerts) VALUES (?, 'btc above 1000 USD: old', '[]')",
                arguments: [HistoryStore.milliseconds(Fixtures.reportTime.addingTimeInterval(-3600))])
        }
        let receiver = Receiver(failing: [Self.second])
        _ = await pipeline.notify(
            outcome, delivery: NoticeDelivery(policy: try Self.twoTargets(), http: receiver, commands: Commands()), historyPath: database)
        #expect(receiver.texts(to: Self.first).first?.hasSuffix("btc above 1000 USD: old") == true, "\(receiver.texts)")
        let pending = try store.pendingNotices()
        #expect(pending.map(\.target) == ["url \(Self.second)", "url \(Self.second)"], "the old notice and this run's, for the target that missed them")
        #expect(pending.first?.text == "btc above 1000 USD: old")
    }

    @Test("kept notices older than 7 days are dropped unsent, in one warning per target")
    func droppedWhenOld() async throws {
        let folder = try TemporaryFolder()
        let (pipeline, outcome, database) = try await Self.run(in: folder)
        let store = try HistoryStore(path: database)
        let old = Fixtures.reportTime.addingTimeInterval(-8 * 86400)
        try store.keepNotice(text: "old one", alerts: "[]", at: old, for: ["url \(Self.first)"])
        try store.keepNotice(text: "old two", alerts: "[]", at: old.addingTimeInterval(60), for: ["url \(Self.first)", "url \(Self.second)"])
        try store.keepNotice(text: "recent", alerts: "[]", at: Fixtures.reportTime.addingTimeInterval(-86400), for: ["url \(Self.first)"])
        let receiver = Receiver()
        let warnings = await pipeline.notify(
            outcome, delivery: NoticeDelivery(policy: try Self.twoTargets(), http: receiver, commands: Commands()), historyPath: database)
        #expect(
            warnings == [
                "Notice: 2 notices for \(Self.first) are dropped unsent, older than 7 days",
                "Notice: 1 notice for \(Self.second) is dropped unsent, older than 7 days",
            ])
        #expect(!receiver.texts.contains { $0.contains("old") }, "\(receiver.texts)")
        #expect(receiver.texts(to: Self.first).first?.hasSuffix("recent") == true)
        #expect(try store.pendingNotices().isEmpty)
    }

    @Test("at most 50 notices are kept per target, the oldest dropped first, in one warning; a target that fails is tried once a run")
    func boundedPerTarget() async throws {
        let folder = try TemporaryFolder()
        let (pipeline, outcome, database) = try await Self.run(in: folder)
        let store = try HistoryStore(path: database)
        let start = Fixtures.reportTime.addingTimeInterval(-86400)
        for index in 0..<52 {
            try store.keepNotice(text: "notice \(index)", alerts: "[]", at: start.addingTimeInterval(Double(index) * 60), for: ["url \(Self.first)"])
        }
        try store.keepNotice(text: "other", alerts: "[]", at: start, for: ["url \(Self.second)"])
        let receiver = Receiver(status: 500)
        let warnings = await pipeline.notify(
            outcome, delivery: NoticeDelivery(policy: try Self.twoTargets(), http: receiver, commands: Commands()), historyPath: database)
        let minute = ReportDates.minute(start)
        #expect(
            warnings == [
                "Notice: \(Self.first) answered HTTP 500 Internal Server Error; the notice of \(minute) is kept for the next run",
                "Notice: \(Self.second) answered HTTP 500 Internal Server Error; the notice of \(minute) is kept for the next run",
                "Notice: \(Self.first) answered HTTP 500 Internal Server Error; the notice is kept and sent by the next run",
                "Notice: \(Self.second) answered HTTP 500 Internal Server Error; the notice is kept and sent by the next run",
                "Notice: 3 notices for \(Self.first) are dropped unsent, the oldest, as at most 50 are kept per target",
            ])
        // One late notice tried per target, then this run's.
        #expect(receiver.urls.withLock { $0 } == [Self.first, Self.second, Self.first, Self.second])
        let kept = try store.pendingNotices().filter { $0.target == "url \(Self.first)" }
        #expect(kept.count == 50)
        #expect(kept.first?.text == "notice 3")
        #expect(kept.last?.text.hasPrefix("btc above 1000 USD") == true)
    }
}
