import Foundation
import Testing

@testable import CryptoReport
@testable import cryptoreport

#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM, SIGINT and SIGHUP end a run cleanly: no temporary file, the lock released, 143, 130 or 129 and one line.
@Suite("Signals", .serialized, .timeLimit(.minutes(2)))
struct SignalTests {
    static let names = ["csv", "md", "html", "json"].map { "cryptoreport-2022-11-22-SEK.\($0)" }

    /// Starts the binary on a server that answers after 20 s, sends `signal` once the request is
    /// in, and returns the exit status, standard error and the output folder.
    func interrupt(with signal: Int32, output: String? = "out", environment extra: [String: String] = [:]) throws -> (
        reason: Process.TerminationReason, status: Int32, stderr: String, out: URL, folder: TemporaryFolder
    ) {
        let slow = LoopbackServer.Response(status: 200, body: try Fixtures.tickers, delay: 20)
        let server = try LoopbackServer(routes: ["/t": slow, "/r": .init(status: 200, body: try Fixtures.rates, contentType: "text/xml")])
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let process = Process()
        process.executableURL = ExecutableTests.binary
        process.arguments =
            [
                "--tickers-url", server.url("/t"), "--ecb-url", server.url("/r"), "--currency", "SEK", "--timeout", "60",
            ] + (output.map { ["--output", $0] } ?? []) + (output == "out" ? [] : ["--format", "csv"])
        process.currentDirectoryURL = folder.url
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = folder.url.appendingPathComponent("cache").path
        environment["XDG_CONFIG_HOME"] = folder.url.appendingPathComponent("config").path
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let started = Date()
        while server.requests.count < 2 && Date().timeIntervalSince(started) < 20 { usleep(20_000) }
        #expect(server.requests.count == 2, "both requests are in")
        usleep(100_000)
        kill(process.processIdentifier, signal)
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus, String(decoding: stderr, as: UTF8.self), folder.url.appendingPathComponent("out"), folder)
    }

    /// Issue 32: a SIGTERM or SIGHUP arriving during certain writes was lost (exit 0, no stop
    /// line, 2 of 8 tries): the watcher thread had taken the pipe's byte but not yet stopped the
    /// run when the commit's stretch ended, and the run went on to a normal exit. The handler
    /// now also keeps the signal where the end of each stretch and the run's own exit look
    /// (`SignalHandling.checkReceived`), whatever the watcher has got to.
    @Test("a signal is kept where each stretch's end and the run's exit look, before any watcher takes it")
    func signalKeptForTheEnd() {
        #expect(SignalHandling.pending == 0)
        SignalHandling.handle(SIGHUP)
        #expect(SignalHandling.pending == SIGHUP)
    }

    /// Issue 32: a template with sections over the rows nested three deep rendered for 20 s inside
    /// the commit, SIGTERM waited for it, and the 19 MB report was committed after it.
    @Test("SIGTERM while a user's template renders: the run stops within a second, and nothing is committed")
    func whileRenderingATemplate() throws {
        let folder = try TemporaryFolder()
        let templates = folder.url.appendingPathComponent("t")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try Data("{{#rows}}{{#rows}}{{#rows}}{{#rows}}{{pair}}{{/rows}}{{/rows}}{{/rows}}{{/rows}}".utf8)
            .write(to: templates.appendingPathComponent("report.md.mustache"))
        let process = Process()
        process.executableURL = ExecutableTests.binary
        process.arguments = ["--sample", "--no-config", "--format", "md", "--templates", "t", "--output", "out", "--no-history"]
        process.currentDirectoryURL = folder.url
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        sleep(2)
        let sent = Date()
        kill(process.processIdentifier, SIGTERM)
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(sent) < 1.5, "honoured within a second or so")
        #expect(process.terminationStatus == 143, "\(String(decoding: stderr, as: UTF8.self))")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("out").path)) ?? []
        #expect(left.allSatisfy { $0 == OutputLock.fileName }, "\(left)")
    }

    @Test(
        "SIGTERM while fetching: exit 143, one line, no temporary file, the lock released",
        arguments: [(SIGTERM, "SIGTERM", 143), (SIGINT, "SIGINT", 130), (SIGHUP, "SIGHUP", 129)])
    func whileFetching(_ signal: Int32, _ name: String, _ status: Int32) async throws {
        let run = try interrupt(with: signal)
        #expect(run.reason == .exit, "the run ends itself rather than being killed")
        #expect(run.status == status)
        #expect(run.stderr == "cryptoreport: stopped by \(name); no temporary file is left, and the output folder holds whole reports.\n")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: run.out.path)) ?? []
        #expect(left.allSatisfy { $0 == OutputLock.fileName }, "\(left)")
        let cache = run.folder.url.appendingPathComponent("cache/cryptoreport")
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []
        #expect(!cached.contains { $0.contains("tmp") || $0.hasPrefix(".") }, "\(cached)")
        #expect(try OutputLock.acquireIfFree(in: run.out) != nil, "the lock is free")
    }

    /// A report to standard output has no folder: the line said it held whole reports.
    @Test("SIGINT while fetching for standard output, by flag or by the environment: 130, and the line speaks of no folder")
    func whileFetchingToStandardOutput() throws {
        for (output, environment) in [("-", [:]), (nil, ["CRYPTOREPORT_OUTPUT": "-"])] as [(String?, [String: String])] {
            let run = try interrupt(with: SIGINT, output: output, environment: environment)
            #expect(run.status == 130)
            #expect(run.stderr == "cryptoreport: stopped by SIGINT; no temporary file is left.\n", "\(environment)")
        }
    }

    @Test(
        "SIGTERM in the middle of the renames: the commit ends first, the whole set is in place, then 143",
        .enabled(if: KillAtRenameTests.strace != nil, "strace is not installed (apt-get install strace): skipped"))
    func duringCommit() throws {
        let (folder, status, stderr) = try interruptMidCommit(history: nil)
        #expect(status == 143)
        #expect(stderr.hasPrefix("cryptoreport: stopped by SIGTERM;"), "\(stderr)")
        let out = folder.url.appendingPathComponent("out")
        let left = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0 != OutputLock.fileName }.sorted()
        // The latest copies and the index are part of the same commit.
        let shared = Self.names.map { $0.replacingOccurrences(of: "2022-11-22", with: "latest") } + ["index.html", SharedFolder.recordName]
        #expect(left == (Self.names + shared).sorted(), "the whole new set, and no journal or temporary file")
    }

    @Test(
        "SIGTERM in the middle of the renames of a run with history: its day is stored with its reports, no journal is left",
        .enabled(if: KillAtRenameTests.strace != nil, "strace is not installed (apt-get install strace): skipped"))
    func duringCommitWithHistory() throws {
        let (folder, status, stderr) = try interruptMidCommit(history: "h.sqlite")
        #expect(status == 143)
        #expect(stderr.hasPrefix("cryptoreport: stopped by SIGTERM;"), "\(stderr)")
        let database = folder.url.appendingPathComponent("h.sqlite").path
        // Looked at before the store is opened again, which would roll a left transaction back.
        #expect(!FileManager.default.fileExists(atPath: database + "-journal"), "the day's transaction is not left open")
        #expect(try HistoryStore(path: database).runs(in: Date(timeIntervalSince1970: 0)...Date()).count == 1, "the day is stored")
        let out = folder.url.appendingPathComponent("out")
        #expect(Self.names.allSatisfy { FileManager.default.fileExists(atPath: out.appendingPathComponent($0).path) })
    }

    /// Runs the binary on the sample under strace, held for two seconds after its third rename,
    /// and sends SIGTERM then. `nil` (the test skipped) without strace.
    func interruptMidCommit(history: String?) throws -> (folder: TemporaryFolder, status: Int32, stderr: String) {
        let strace = try #require(KillAtRenameTests.strace)
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("out")
        // strace holds the run for two seconds after its third rename (the journal, the CSV, the
        // Markdown report): the SIGTERM, sent to the process as kill(1) would, lands mid-commit.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strace)
        process.arguments =
            ["-f", "-o", "/dev/null", "-e", "trace=rename", "-e", "inject=rename:delay_exit=2000000:when=3", ExecutableTests.binary.path]
            + ["--sample", "--currency", "SEK", "--output", "out", "--no-config"] + (history.map { ["--history", $0] } ?? ["--no-history"])
        process.currentDirectoryURL = folder.url
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let started = Date()
        func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path) }
        while !(exists(Self.names[1]) && exists(".cryptoreport-journal")) && Date().timeIntervalSince(started) < 30 { usleep(5_000) }
        #expect(!exists(Self.names[2]), "the run is held in the middle of its commit")
        let children = try String(
            contentsOfFile: "/proc/\(process.processIdentifier)/task/\(process.processIdentifier)/children", encoding: .utf8)
        let tracee = try #require(children.split(separator: " ").first.flatMap { Int32($0) })
        kill(tracee, SIGTERM)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (folder, process.terminationStatus, stderr)
    }
}
