import Foundation
import Testing

@testable import CryptoReport

/// The real binary killed at each rename of its commit (by strace, which hits the few milliseconds
/// between the renames every time, where random kills miss them), then a failing run: the folder
/// holds the whole previous set or the whole new set, never a mix, and no report is lost.
@Suite("Killed at every rename", .serialized, .timeLimit(.minutes(5)))
struct KillAtRenameTests {
    static let formats = ["csv", "md", "html", "json"]
    /// The index is part of the commit too; the `latest` copies are left out (`--no-latest`) to
    /// keep the number of kills down: they are renamed by the same journal as the index.
    static let names = formats.map { "cryptoreport-2022-11-22-SEK.\($0)" } + ["index.html", SharedFolder.recordName]
    static let arguments = [
        "--tickers-url", "t.json", "--ecb-url", "e.xml", "--output", "cr", "--currency", "SEK", "--symbols", "btc,eth", "--markets", "all",
        "--format", "all", "--no-latest", "-q",
    ]

    @Test("two runs a minute apart compare equal; the feed's own times still count")
    func runTimeMasked() {
        func masked(_ text: String) -> String { text.replacing(Self.runTime, with: "<run time>") }
        #expect(masked("<span>Skapad 2026-11-24 02:20 UTC</span>") == masked("<span>Skapad 2026-11-24 02:21 UTC</span>"))
        #expect(masked(#""generated_at" : "2026-11-24T02:20:36.145Z","#) == masked(#""generated_at" : "2026-11-24T02:21:01.007Z","#))
        #expect(masked("(hämtad 2026-11-24 02:20 UTC)") == "(hämtad <run time>)")
        #expect(masked("2022-11-22 00:51 UTC") != masked("2022-11-22 00:52 UTC"))
    }

    static var strace: String? {
        ["/usr/bin/strace", "/bin/strace", "/usr/local/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The reports with the time of the run masked. Every time a run writes of itself is of today,
    /// the feed's of 2022; in any language (the SEK index says "Skapad 2026-11-24 02:10 UTC"), so
    /// two runs a minute apart compare equal. Filtering English lines only made this test fail
    /// whenever its runs crossed a minute.
    static func reports(in folder: URL) -> [String] {
        names.map { name in
            let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? "<missing>"
            return text.replacing(Self.runTime, with: "<run time>")
        }
    }

    static var runTime: some RegexComponent { #/(?!2022-)\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?(Z| UTC|[+-]\d\d:?\d\d)?/# }

    static func strace(_ strace: String, _ options: [String], in folder: URL) throws -> ExecutableTests.Run {
        try ExecutableTests.run(
            ["-f", "-o", "/dev/null"] + options + [ExecutableTests.binary.path] + arguments, in: folder,
            executable: URL(fileURLWithPath: strace))
    }

    /// Without strace the commit is still tested step by step in CommitRecoveryTests.
    @Test(
        "kill -9 at each rename, then a failing run: the whole old set or the whole new set",
        .enabled(if: Self.strace != nil, "strace is not installed (apt-get install strace): skipped"))
    func killAtEveryRename() throws {
        let strace = try #require(Self.strace)
        let folder = try TemporaryFolder()
        let sample = try String(contentsOf: Fixtures.tickersURL, encoding: .utf8)
        let newTickers = sample.replacingOccurrences(of: "\"lastPrice\":\"1398000.0\"", with: "\"lastPrice\":\"1399000.0\"")
        #expect(newTickers != sample)
        try Data(contentsOf: Fixtures.ratesURL).write(to: folder.url.appendingPathComponent("e.xml"))
        let tickers = folder.url.appendingPathComponent("t.json")
        let out = folder.url.appendingPathComponent("cr")

        // The two sets, from whole runs.
        try Data(newTickers.utf8).write(to: tickers)
        #expect(try ExecutableTests.run(Self.arguments, in: folder.url).status == 0)
        let newSet = Self.reports(in: out)
        try Data(sample.utf8).write(to: tickers)
        // How many renames a whole run makes, counted by strace itself.
        let log = folder.url.appendingPathComponent("renames.log")
        let counted = try ExecutableTests.run(
            ["-f", "-e", "trace=rename", "-o", log.path, ExecutableTests.binary.path] + Self.arguments, in: folder.url,
            executable: URL(fileURLWithPath: strace))
        #expect(counted.status == 0)
        let oldSet = Self.reports(in: out)
        #expect(oldSet != newSet)
        let renames = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("rename(") }.count
        // The journal, then one rename per report.
        #expect(renames == 1 + Self.names.count)

        var sawOld = 0
        var sawNew = 0
        for when in 1...renames {
            try Data(newTickers.utf8).write(to: tickers)
            let killed = try Self.strace(strace, ["-e", "trace=rename", "-e", "inject=rename:signal=KILL:when=\(when)"], in: folder.url)
            #expect(killed.status != 0, "rename \(when): the run was killed")
            // A failing run (exit 66) still finishes the killed commit first, and deletes no report.
            let failing = try ExecutableTests.run(
                ["--tickers-url", "/no/such.json", "--ecb-url", "e.xml", "--output", "cr", "--currency", "SEK"], in: folder.url)
            #expect(failing.status == 66)
            let after = Self.reports(in: out)
            if after == oldSet {
                sawOld += 1
            } else if after == newSet {
                sawNew += 1
            } else {
                Issue.record("killed at rename \(when): the reports are a mix of two runs")
            }
            let hidden = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".tmp") || $0.contains("journal") }
            #expect(hidden.isEmpty, "rename \(when): leftovers \(hidden)")
            // Back to the old set for the next kill.
            try Data(sample.utf8).write(to: tickers)
            #expect(try ExecutableTests.run(Self.arguments, in: folder.url).status == 0)
            #expect(Self.reports(in: out) == oldSet)
        }
        // Killed at the journal's rename the commit had not begun; at any report's, it had.
        #expect(sawOld == 1 && sawNew == renames - 1)
    }
}
