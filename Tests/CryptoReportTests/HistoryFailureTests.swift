import Foundation
import GRDB
import Testing

@testable import CryptoReport

/// The history is written after the reports: when it cannot be, cron must hear of it, and the
/// output folder's own files are never reached through a symbolic link.
@Suite("History failures and symbolic links in the output folder", .serialized)
struct HistoryFailureTests {
    // The sample records no history unless asked to.
    static let arguments = ["--sample", "--currency", "SEK", "--format", "all", "--output", "out", "-q", "--history", "out/history.sqlite"]
    static let names = ["csv", "md", "html", "json"].map { "cryptoreport-2022-11-22-SEK.\($0)" }

    /// As user nobody: "History: …: The operation could not be completed. You don’t have
    /// permission.; the reports were written…".
    @Test("a file system's refusal is said in a few words, to stand in the sentence")
    func foundationErrorsWorded() {
        #expect(HistoryStore.describe(CocoaError(.fileWriteNoPermission)) == "permission denied (its folder cannot be made or written)")
        #expect(HistoryStore.describe(CocoaError(.fileWriteOutOfSpace)) == "no space left on the device")
        #expect(!HistoryStore.describe(CocoaError(.fileNoSuchFile)).hasSuffix("."))
        #expect(
            HistoryError.cannotOpen(path: "h.sqlite", reason: HistoryStore.describe(CocoaError(.fileWriteNoPermission))).errorDescription?.contains(".;")
                == false)
    }

    @Test("a full disk during the history write: one line on stderr even with --quiet, exit 74, the reports kept")
    func fullDiskUnderQuiet() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("out/history.sqlite").path
        _ = try HistoryStore(path: path)
        // SQLite's own error for a full disk, raised by the database on the write itself.
        let database = try DatabaseQueue(path: path)
        try database.write { try $0.execute(sql: "CREATE TRIGGER full BEFORE INSERT ON run BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END") }
        try database.close()
        let run = try ExecutableTests.run(Self.arguments, in: folder.url)
        #expect(run.status == 74)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr
                == "cryptoreport: History: out/history.sqlite: database or disk is full; the reports were written, but this run is not in the history.\n")
        #expect(Set(folder.contents("out")).isSuperset(of: Self.names))
    }

    @Test("a first run whose source cannot be read leaves no history behind, nor a folder for it; a later run that can, makes it")
    func failedFirstRun() throws {
        let folder = try TemporaryFolder()
        let arguments = [
            "--tickers-url", "missing.json", "--ecb-url", Fixtures.ratesURL.path, "--currency", "SEK", "--format", "csv",
            "--output", "out", "-q", "--no-config", "--history", "kept/history.sqlite",
        ]
        let failed = try ExecutableTests.run(arguments, in: folder.url)
        #expect(failed.status == 66)
        #expect(failed.stderr == "cryptoreport: WazirX tickers: no such file missing.json.\n")
        func listed(_ path: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent(path).path)) ?? []).sorted()
        }
        #expect(listed("").isEmpty, "\(listed(""))")
        let tickers = folder.url.appendingPathComponent("missing.json")
        try FileManager.default.copyItem(at: Fixtures.tickersURL, to: tickers)
        #expect(try ExecutableTests.run(arguments, in: folder.url).status == 0)
        #expect(listed("kept") == ["history.sqlite"])
    }

    @Test("damaged stored rows are said, not taken for a missing market: an error when nothing is left (exit 65), else a warning")
    func damagedRows() throws {
        let folder = try TemporaryFolder()
        #expect(try ExecutableTests.run(Self.arguments, in: folder.url).status == 0)
        let database = try DatabaseQueue(path: folder.url.appendingPathComponent("out/history.sqlite").path)
        try database.write {
            try $0.execute(sql: "UPDATE market SET last = 'abc' WHERE name_id IN (SELECT id FROM market_name WHERE symbol = 'btcusdt')")
        }
        try database.close()
        let export = ["--days", "3650", "--currency", "SEK", "--history", "out/history.sqlite", "--no-config"]
        let market = try ExecutableTests.run(["history", "--symbol", "btcusdt"] + export, in: folder.url)
        #expect(market.status == 65)
        #expect(market.stdout.isEmpty)
        #expect(
            market.stderr == """
                cryptoreport: History: out/history.sqlite: 1 stored row for "btcusdt" cannot be read (not figures this tool writes); \
                the database may be damaged.\n
                """)
        // The asset's other markets are still there: the export goes on without the damaged row,
        // and says what it left out.
        let asset = try ExecutableTests.run(["history", "--symbol", "btc"] + export, in: folder.url)
        #expect(asset.status == 0)
        #expect(asset.stdout.contains(",btcinr,SEK,"), "\(asset.stdout)")
        #expect(
            asset.stderr == """
                cryptoreport: warning: History: out/history.sqlite: 1 stored row for "btc" cannot be read (not figures this tool writes); \
                the database may be damaged. They are left out.\n
                """)
    }

    @Test("history.sqlite as a symbolic link is refused, not followed: exit 74, nothing created where it points")
    func historySymlink() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("out"), withIntermediateDirectories: true)
        let target = folder.url.appendingPathComponent("elsewhere.sqlite")
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("out/history.sqlite"), withDestinationURL: target)
        let run = try ExecutableTests.run(Self.arguments, in: folder.url)
        #expect(run.status == 74)
        #expect(run.stderr.contains("history.sqlite: it is a symbolic link, which is never followed"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(Set(folder.contents("out")).isSuperset(of: Self.names))
        // The export reads no database through a link either.
        _ = try HistoryStore(path: target.path)
        let export = try ExecutableTests.run(["history", "--symbol", "btc", "--history", "out/history.sqlite", "--no-config"], in: folder.url)
        #expect(export.status == 66)
        #expect(export.stderr.contains("it is a symbolic link, which is never followed"), "\(export.stderr)")
    }

    @Test("the lock file as a symbolic link is refused before anything: exit 73, nothing created where it points")
    func lockSymlink() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("out"), withIntermediateDirectories: true)
        let target = folder.url.appendingPathComponent("elsewhere.lock")
        try FileManager.default.createSymbolicLink(at: folder.url.appendingPathComponent("out/.cryptoreport.lock"), withDestinationURL: target)
        let run = try ExecutableTests.run(Self.arguments, in: folder.url)
        #expect(run.status == 73)
        #expect(run.stderr.hasSuffix("/out: .cryptoreport.lock is a symbolic link, which is never followed; remove it.\n"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(!folder.contents("out").contains(Self.names[0]))
    }

    @Test("the journal as a symbolic link is refused: exit 73, the reports untouched")
    func journalSymlink() throws {
        let folder = try TemporaryFolder()
        #expect(try ExecutableTests.run(Self.arguments, in: folder.url).status == 0)
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("out/.cryptoreport-journal"), withDestinationURL: URL(fileURLWithPath: "/etc/hostname"))
        let run = try ExecutableTests.run(Self.arguments, in: folder.url)
        #expect(run.status == 73)
        #expect(run.stderr.contains(".cryptoreport-journal is not a regular file (a symbolic link is never followed)"), "\(run.stderr)")
    }
}
