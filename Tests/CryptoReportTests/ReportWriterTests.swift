import Foundation
import Testing

@testable import CryptoReport

/// The writer's promise: all reports of a run or none, and nothing half-written under a report's name.
@Suite("Report writer: all or nothing")
struct ReportWriterTests {
    static func everything(in folder: TemporaryFolder) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? []).sorted()
    }

    static func text(_ folder: TemporaryFolder, _ name: String) -> String? {
        try? String(contentsOf: folder.url.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("replacing reports leaves only the new reports: no backup, no temporary file")
    func replaces() throws {
        let folder = try TemporaryFolder()
        let writer = ReportWriter(directory: folder.url)
        try writer.write([("a.csv", "old a"), ("b.md", "old b")])
        let written = try writer.write([("a.csv", "new a"), ("b.md", "new b"), ("c.json", "new c")])
        #expect(written.map(\.lastPathComponent) == ["a.csv", "b.md", "c.json"])
        #expect(Self.everything(in: folder) == ["a.csv", "b.md", "c.json"])
        #expect(Self.text(folder, "a.csv") == "new a" && Self.text(folder, "c.json") == "new c")
    }

    @Test("reports made as they are staged, and copies of them: the same bytes; one that cannot be made replaces nothing")
    func madeWhenStaged() throws {
        struct Broken: Error {}
        let folder = try TemporaryFolder()
        let writer = ReportWriter(directory: folder.url)
        try writer.write([("a.csv", "old a"), ("latest.csv", "old latest")])
        var made: [String] = []
        try writer.write(files: [
            .init(
                name: "a.csv",
                contents: .rendered {
                    made.append("a"); return "new a"
                }),
            .init(
                name: "b.md",
                contents: .rendered {
                    made.append("b"); return "new b"
                }),
            .init(name: "latest.csv", contents: .copy(of: "a.csv")),
        ])
        #expect(made == ["a", "b"])
        #expect(Self.text(folder, "a.csv") == "new a" && Self.text(folder, "latest.csv") == "new a" && Self.text(folder, "b.md") == "new b")
        #expect(Self.everything(in: folder) == ["a.csv", "b.md", "latest.csv"])
        #expect(throws: OutputError.self) {
            try writer.write(files: [
                .init(name: "a.csv", contents: .text("newer a")),
                .init(name: "b.md", contents: .rendered { throw Broken() }),
            ])
        }
        #expect(Self.text(folder, "a.csv") == "new a" && Self.text(folder, "b.md") == "new b")
        #expect(Self.everything(in: folder) == ["a.csv", "b.md", "latest.csv"])
    }

    @Test(
        "a report streamed in pieces is staged as their bytes, its copy linked to it, on the real file system and on one without hard links",
        arguments: [false, true])
    func streamed(wholeFiles: Bool) throws {
        let folder = try TemporaryFolder()
        var writer = ReportWriter(directory: folder.url)
        if wholeFiles { writer.fileSystem = NoHardLinks() }
        try writer.write([("a.html", "old a")])
        let pieces = (0..<300).map { "piece \($0) ✓ " + String(repeating: "x", count: $0 * 37) + "\n" }
        try writer.write(files: [
            .init(name: "a.html", contents: .streamed { piece in pieces.forEach(piece) }),
            .init(name: "latest.html", contents: .copy(of: "a.html")),
            .init(name: "empty.html", contents: .streamed { _ in }),
        ])
        #expect(Self.text(folder, "a.html") == pieces.joined() && Self.text(folder, "latest.html") == pieces.joined())
        #expect(Self.text(folder, "empty.html") == "")
        #expect(Self.everything(in: folder) == ["a.html", "empty.html", "latest.html"])
        // The copy is a second name of the same file where hard links exist, a file of its own elsewhere.
        func inode(_ name: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent(name).path)[.systemFileNumber] as? Int
        }
        #expect(try inode("a.html") != nil)
        #expect(try (inode("a.html") == inode("latest.html")) == !wholeFiles)
    }

    @Test("a synced copy of a file larger than its buffer holds the same bytes; it never replaces a file or makes one from nothing")
    func copySynced() throws {
        let folder = try TemporaryFolder()
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        let bytes = Data((0..<(5 << 19) + 7).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) })
        try bytes.write(to: URL(fileURLWithPath: path("a")))
        let files = POSIXCommitFileSystem()
        #expect(files.copySynced(path("a"), path("b")) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("b"))) == bytes)
        try Data("kept".utf8).write(to: URL(fileURLWithPath: path("c")))
        #expect(files.copySynced(path("a"), path("c")) == EEXIST)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("c"))) == Data("kept".utf8))
        #expect(files.copySynced(path("missing"), path("d")) == ENOENT)
        #expect(!FileManager.default.fileExists(atPath: path("d")))
    }

    @Test("a folder in the way of one report fails the run before any report is replaced")
    func folderInTheWay() throws {
        let folder = try TemporaryFolder()
        let writer = ReportWriter(directory: folder.url)
        try writer.write([("a.csv", "old a"), ("b.md", "old b")])
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("c.json"), withIntermediateDirectories: false)
        #expect(throws: OutputError.writeFailed(path: folder.url.appendingPathComponent("c.json").path, reason: "a folder of that name is in the way")) {
            try writer.write([("a.csv", "new a"), ("b.md", "new b"), ("c.json", "new c")], removing: ["d-alerts.csv"])
        }
        #expect(Self.text(folder, "a.csv") == "old a")
        #expect(Self.text(folder, "b.md") == "old b")
        #expect(Self.everything(in: folder) == ["a.csv", "b.md", "c.json"])
    }

    @Test("an obsolete report goes with the write that replaces the others, and stays when it fails")
    func obsolete() throws {
        let folder = try TemporaryFolder()
        let writer = ReportWriter(directory: folder.url)
        try writer.write([("a.csv", "old a"), ("a-alerts.csv", "old alerts")])
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("b.md"), withIntermediateDirectories: false)
        #expect(throws: OutputError.self) {
            try writer.write([("a.csv", "new a"), ("b.md", "new b")], removing: ["a-alerts.csv"])
        }
        #expect(Self.text(folder, "a-alerts.csv") == "old alerts")
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("b.md"))
        try writer.write([("a.csv", "new a")], removing: ["a-alerts.csv", "never-written.csv"])
        #expect(Self.everything(in: folder) == ["a.csv"])
    }

    @Test("a rename that fails part-way puts back every report already replaced or removed")
    func rollBack() throws {
        let folder = try TemporaryFolder()
        let writer = ReportWriter(directory: folder.url)
        try writer.write([("a.csv", "old a"), ("a-alerts.csv", "old alerts")])
        // b.json is staged and checked like any other and fails only at its rename, after a.csv
        // was replaced and the alerts file moved aside.
        var failing = writer
        failing.fileSystem = FailingRename(failing: "b.json")
        #expect(throws: OutputError.writeFailed(path: folder.url.appendingPathComponent("b.json").path, reason: "No such file or directory")) {
            try failing.write([("a.csv", "new a"), ("b.json", "new")], removing: ["a-alerts.csv"])
        }
        #expect(Self.text(folder, "a.csv") == "old a")
        #expect(Self.text(folder, "a-alerts.csv") == "old alerts")
        #expect(Self.everything(in: folder) == ["a-alerts.csv", "a.csv"])
    }

    @Test("without hard links the previous reports are copied aside, so a failure still puts them back")
    func noHardLinks() throws {
        let folder = try TemporaryFolder()
        var writer = ReportWriter(directory: folder.url)
        writer.fileSystem = NoHardLinks()
        try writer.write([("a.csv", "old a"), ("b.md", "old b")])
        writer.fileSystem = FailingRename(real: NoHardLinks(), failing: "c.json")
        #expect(throws: OutputError.self) {
            try writer.write([("a.csv", "new a"), ("b.md", "new b"), ("c.json", "new")])
        }
        writer.fileSystem = NoHardLinks()
        #expect(Self.text(folder, "a.csv") == "old a" && Self.text(folder, "b.md") == "old b")
        try writer.write([("a.csv", "new a"), ("b.md", "new b")])
        #expect(Self.everything(in: folder) == ["a.csv", "b.md"])
        #expect(Self.text(folder, "a.csv") == "new a")
    }

    @Test("after a run killed while committing, a report kept aside goes back if nothing took its place")
    func leftoversRestoreBackups() throws {
        let folder = try TemporaryFolder()
        let writer = ReportWriter(directory: folder.url)
        try writer.write([("cryptoreport-2022-11-22-SEK.csv", "new csv")])
        // Kept aside and already replaced: the backup goes. Moved aside (an alerts file) and
        // killed before anything replaced it: it comes back. A staged report: it goes.
        try Data("old csv".utf8).write(to: folder.url.appendingPathComponent(".cryptoreport-2022-11-22-SEK.csv.1A2B3C4D.old.tmp"))
        try Data("old alerts".utf8).write(to: folder.url.appendingPathComponent(".cryptoreport-2022-11-22-SEK-alerts.csv.5E6F7A8B.old.tmp"))
        try Data("half".utf8).write(to: folder.url.appendingPathComponent(".cryptoreport-2022-11-22-SEK.md.9C0D1E2F.tmp"))
        // An outdated file on its way out (moved aside after every report was in place): it goes.
        try Data("outdated".utf8).write(to: folder.url.appendingPathComponent(".cryptoreport-2022-11-22-USD-alerts.csv.3A4B5C6D.gone.tmp"))
        try writer.recover()
        #expect(Self.everything(in: folder) == ["cryptoreport-2022-11-22-SEK-alerts.csv", "cryptoreport-2022-11-22-SEK.csv"])
        #expect(Self.text(folder, "cryptoreport-2022-11-22-SEK.csv") == "new csv")
        #expect(Self.text(folder, "cryptoreport-2022-11-22-SEK-alerts.csv") == "old alerts")
        #expect(ReportWriter.originalName(ofBackup: ".a.csv.1234.old.tmp") == nil)
        // Only the writer's own pattern is ever deleted: a user's hidden files stay.
        #expect(ReportWriter.isTemporaryName(".a.csv.1A2B3C4D.tmp") && ReportWriter.isTemporaryName(".cryptoreport-journal.tmp"))
        #expect(!ReportWriter.isTemporaryName(".notes.tmp") && !ReportWriter.isTemporaryName(".a.csv.1A2B3C4G.tmp"))
        #expect(!ReportWriter.isTemporaryName("a.csv.1A2B3C4D.tmp") && !ReportWriter.isTemporaryName(".1A2B3C4D.tmp"))
    }
}

extension ReportWriterTests {
    @Test("a report staged by the real file system holds its pieces' bytes, and never replaces a file")
    func staged() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("staged").path
        let pieces = (0..<16).map { piece in (0..<((piece * 197_003) % 600_000)).map { UInt8(truncatingIfNeeded: ($0 &* 31) ^ ($0 >> 9) ^ piece) } }
        #expect(
            POSIXCommitFileSystem().createSynced(path) { write in
                for piece in pieces { piece.withUnsafeBytes(write) }
            } == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(pieces.joined()))
        #expect(POSIXCommitFileSystem().createSynced(path) { _ in } == EEXIST)
    }
}

/// A file system whose `failing`-th folder sync fails with EIO.
final class FailingSync: CommitFileSystem, @unchecked Sendable {
    let real = POSIXCommitFileSystem()
    let failing: Int
    private var syncs = 0

    init(failing: Int) { self.failing = failing }

    func createSynced(_ path: String, _ data: Data) -> Int32 { real.createSynced(path, data) }
    func hardLink(_ existing: String, _ new: String) -> Int32 { real.hardLink(existing, new) }
    func copySynced(_ existing: String, _ new: String) -> Int32 { real.copySynced(existing, new) }
    func rename(_ from: String, _ to: String) -> Int32 { real.rename(from, to) }
    func unlink(_ path: String) -> Int32 { real.unlink(path) }
    func syncDirectory(_ path: String) -> Int32 {
        syncs += 1
        return syncs == failing ? EIO : real.syncDirectory(path)
    }
}

extension ReportWriterTests {
    /// Issue 32: EIO or ENOSPC on the folder's sync after the renames was ignored (exit 0).
    @Test(
        "a folder that cannot be synced after the renames is an error (73), with the new reports in place and the commit finished by the next run",
        arguments: [2, 3])
    func syncAfterRenames(failing: Int) throws {
        let folder = try TemporaryFolder()
        var writer = ReportWriter(directory: folder.url)
        try writer.write([("a.csv", "old a")])
        writer.fileSystem = FailingSync(failing: failing)
        #expect {
            try writer.write([("a.csv", "new a"), ("b.md", "new b")])
        } throws: { error in
            (error as? OutputError)?.errorDescription?.contains("the reports are in place but the folder could not be synced to disk") == true
                && (error as? OutputError)?.exitStatus == .cannotCreateOutput
        }
        #expect(Self.text(folder, "a.csv") == "new a" && Self.text(folder, "b.md") == "new b")
        if failing == 2 {
            // The journal stayed: recovery on a folder that still cannot be synced says so, and
            // leaves the journal for the next run.
            writer.fileSystem = FailingSync(failing: 1)
            #expect(throws: OutputError.self) { try writer.recover() }
            #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(CommitJournal.fileName).path))
        }
        writer.fileSystem = POSIXCommitFileSystem()
        try writer.recover()
        #expect(Self.everything(in: folder) == ["a.csv", "b.md"])
    }
}

/// A file system on which a rename onto the file name `failing` fails (ENOENT), as one into a
/// folder removed under the run would: the commit fails at that rename, after those before it.
struct FailingRename: CommitFileSystem {
    var real: any CommitFileSystem = POSIXCommitFileSystem()
    let failing: String

    func createSynced(_ path: String, _ data: Data) -> Int32 { real.createSynced(path, data) }
    func hardLink(_ existing: String, _ new: String) -> Int32 { real.hardLink(existing, new) }
    func copySynced(_ existing: String, _ new: String) -> Int32 { real.copySynced(existing, new) }
    func rename(_ from: String, _ to: String) -> Int32 {
        (to as NSString).lastPathComponent == failing ? ENOENT : real.rename(from, to)
    }
    func unlink(_ path: String) -> Int32 { real.unlink(path) }
    func syncDirectory(_ path: String) -> Int32 { real.syncDirectory(path) }
}

/// A file system without hard links (FAT, some network file systems).
struct NoHardLinks: CommitFileSystem {
    let real = POSIXCommitFileSystem()
    func createSynced(_ path: String, _ data: Data) -> Int32 { real.createSynced(path, data) }
    func hardLink(_ existing: String, _ new: String) -> Int32 { EPERM }
    func copySynced(_ existing: String, _ new: String) -> Int32 { real.copySynced(existing, new) }
    func rename(_ from: String, _ to: String) -> Int32 { real.rename(from, to) }
    func unlink(_ path: String) -> Int32 { real.unlink(path) }
    func syncDirectory(_ path: String) -> Int32 { real.syncDirectory(path) }
}
