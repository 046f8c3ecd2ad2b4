import Foundation
import GRDB
import Testing

@testable import CryptoReport

#if canImport(Glibc)
    import Glibc
#endif

/// Runs killed mid-way, runs started together, folders that cannot be written.
@Suite("Crash safety and concurrent runs", .serialized, .timeLimit(.minutes(3)))
struct CrashSafetyTests {
    static let arguments = [
        "--sample", "--markets", "all", "--format", "all", "--output", "out", "--currency", "SEK", "--history", "out/history.sqlite",
    ]
    static let names = ["csv", "md", "html", "json"].map { "cryptoreport-2022-11-22-SEK.\($0)" }

    func start(_ arguments: [String], in folder: URL) throws -> Process {
        let process = Process()
        process.executableURL = ExecutableTests.binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test("kill -9 at any moment leaves whole reports or none, and the next run clears the leftovers")
    func killNine() throws {
        let folder = try TemporaryFolder()
        let first = try ExecutableTests.run(Self.arguments, in: folder.url)
        #expect(first.status == 0)
        let out = folder.url.appendingPathComponent("out")
        let referenceCSV = try Data(contentsOf: out.appendingPathComponent(Self.names[0]))
        let referenceTail = try String(contentsOf: out.appendingPathComponent(Self.names[1]), encoding: .utf8).suffix(80)

        var leftoversSeen = 0
        var killedWhileWriting = 0
        for round in 0..<24 {
            let process = try start(Self.arguments, in: folder.url)
            if round.isMultiple(of: 2) {
                // Kill the moment a temporary report file appears: mid-write.
                while process.isRunning {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
                    if names.contains(where: { $0.hasSuffix(".tmp") }) {
                        kill(process.processIdentifier, SIGKILL)
                        killedWhileWriting += 1
                        break
                    }
                    usleep(200)
                }
            } else {
                // Spread the other kills over a run's whole life, start to finish.
                usleep(useconds_t(10_000 + (round * 37_000) % 600_000))
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()

            let entries = try FileManager.default.contentsOfDirectory(atPath: out.path)
            leftoversSeen += entries.filter { $0.hasSuffix(".tmp") }.count
            for name in Self.names {
                let data = try Data(contentsOf: out.appendingPathComponent(name))
                switch name.split(separator: ".").last {
                case "csv": #expect(data == referenceCSV, "round \(round): \(name) is not whole")
                case "md": #expect(String(decoding: data, as: UTF8.self).hasSuffix(referenceTail), "round \(round): \(name)")
                case "html": #expect(String(decoding: data, as: UTF8.self).hasSuffix("</html>\n"), "round \(round): \(name)")
                default: #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "round \(round): \(name)")
                }
            }
        }
        #expect(killedWhileWriting > 0, "no kill landed while the reports were being written")
        let last = try ExecutableTests.run(Self.arguments, in: folder.url)
        #expect(last.status == 0)
        let entries = try FileManager.default.contentsOfDirectory(atPath: out.path).filter {
            !$0.hasPrefix(".cryptoreport.lock") && !$0.hasPrefix("history.sqlite")
        }
        let shared = Self.names.map { $0.replacingOccurrences(of: "2022-11-22", with: "latest") } + ["index.html", SharedFolder.recordName]
        #expect(entries.sorted() == (Self.names + shared).sorted(), "leftover temporary files are removed (\(leftoversSeen) seen after kills)")
        // The history survived every kill: consistent, and the snapshot stored once.
        let history = try DatabaseQueue(path: out.appendingPathComponent("history.sqlite").path)
        #expect(try history.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        #expect(try history.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM run") } == 1)
        #expect(try history.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM market") } == 450)
    }

    @Test("a second run waits for the first, bounded by --lock-timeout")
    func lock() async throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        var held: OutputLock? = try await OutputLock.acquire(in: out, timeout: 0)

        let refused = try ExecutableTests.run(Self.arguments + ["--lock-timeout", "0.5"], in: folder.url)
        #expect(refused.status == 75)
        // Said as the wait begins, so that a run by hand during cron's does not seem to hang.
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(refused.stderr)")
        #expect(lines.first?.hasPrefix("cryptoreport: warning: another run is writing into /") == true, "\(refused.stderr)")
        #expect(lines.first?.hasSuffix("/out; waiting for it, up to 0.5 s (--lock-timeout)") == true, "\(refused.stderr)")
        #expect(lines.last?.hasPrefix("cryptoreport: Output: another cryptoreport run is writing into /") == true)
        #expect(refused.stderr.hasSuffix("/out; gave up after waiting 0.5 s (--lock-timeout).\n"))
        let quiet = try ExecutableTests.run(Self.arguments + ["--lock-timeout", "0.2", "--quiet"], in: folder.url)
        #expect(quiet.status == 75 && quiet.stderr.split(separator: "\n").count == 1, "--quiet leaves the failure only: \(quiet.stderr)")
        #expect(folder.contents("out").isEmpty)

        let waiting = try start(Self.arguments + ["--lock-timeout", "30"], in: folder.url)
        try await Task.sleep(nanoseconds: 1_000_000_000)
        #expect(waiting.isRunning, "the second run waits while the lock is held")
        held = nil
        waiting.waitUntilExit()
        #expect(waiting.terminationStatus == 0)
        #expect(folder.contents("out") == Self.names.sorted())
        withExtendedLifetime(held) {}
    }

    @Test("an output folder that cannot be written fails before any request is made")
    func unwritableBeforeFetch() throws {
        let server = try LoopbackServer(routes: [:])
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try Data("x".utf8).write(to: folder.url.appendingPathComponent("file"))
        let run = try ExecutableTests.run(
            ["--tickers-url", server.url("/t"), "--ecb-url", server.url("/r"), "--output", "file/reports"], in: folder.url)
        #expect(run.status == 73)
        #expect(server.requests.isEmpty)
    }
}
