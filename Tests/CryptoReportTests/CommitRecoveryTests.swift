import Foundation
import Synchronization
import Testing

@testable import CryptoReport

#if canImport(Glibc)
    import Glibc
#endif

/// A file system that dies after `steps` changes, as a process killed with `kill -9` would: every
/// later change is dropped (and reported done, so the writer carries on into nothing).
final class StoppingFileSystem: CommitFileSystem, @unchecked Sendable {
    let real: any CommitFileSystem
    private let lock = NSLock()
    private var remaining: Int
    private(set) var stepsTaken = 0

    init(after steps: Int, real: any CommitFileSystem = POSIXCommitFileSystem()) {
        self.remaining = steps
        self.real = real
    }

    var died: Bool { lock.withLock { remaining == 0 } }

    private func step(_ change: () -> Int32) -> Int32 {
        let alive = lock.withLock {
            guard remaining > 0 else { return false }
            remaining -= 1
            stepsTaken += 1
            return true
        }
        return alive ? change() : 0
    }

    func createSynced(_ path: String, _ data: Data) -> Int32 { step { real.createSynced(path, data) } }
    func hardLink(_ existing: String, _ new: String) -> Int32 { step { real.hardLink(existing, new) } }
    func copySynced(_ existing: String, _ new: String) -> Int32 { step { real.copySynced(existing, new) } }
    func rename(_ from: String, _ to: String) -> Int32 { step { real.rename(from, to) } }
    func unlink(_ path: String) -> Int32 { step { real.unlink(path) } }
    func syncDirectory(_ path: String) -> Int32 { step { real.syncDirectory(path) } }

    /// Another kind of change (the day's commit in the history) counted as a step: made only
    /// while the "process" lives.
    func ifAlive<T>(_ change: () throws -> T) throws -> T? {
        var made: T?
        var failure: (any Error)?
        _ = step {
            do { made = try change() } catch { failure = error }
            return 0
        }
        if let failure { throw failure }
        return made
    }
}

/// A commit stopped after every one of its steps, then recovered as the next run would: the folder
/// holds the whole previous set of reports or the whole new one, and nothing else.
@Suite("Report writer: a commit stopped at any step")
struct CommitRecoveryTests {
    static let old = ["a.csv": "old a", "b.md": "old b", "a-alerts.csv": "old alerts", "other.txt": "not ours"]
    static let new = ["a.csv": "new a", "b.md": "new b", "c.json": "new c", "other.txt": "not ours"]

    static func contents(of folder: TemporaryFolder) -> [String: String] {
        var result: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? [] {
            result[name] = (try? String(contentsOf: folder.url.appendingPathComponent(name), encoding: .utf8)) ?? "<unreadable>"
        }
        return result
    }

    /// Runs the commit stopped after 0, 1, 2 … steps until one runs to its end, and checks each
    /// folder after recovery; returns how many steps a whole commit takes.
    @discardableResult
    static func stopAtEveryStep(
        real: any CommitFileSystem = POSIXCommitFileSystem(), failing extra: (name: String, contents: String)? = nil,
        expectNew: Bool = true
    ) throws -> Int {
        var steps = 0
        while true {
            let folder = try TemporaryFolder()
            var writer = ReportWriter(directory: folder.url)
            try writer.write([("a.csv", "old a"), ("b.md", "old b"), ("a-alerts.csv", "old alerts")])
            try Data("not ours".utf8).write(to: folder.url.appendingPathComponent("other.txt"))
            let stopping = StoppingFileSystem(after: steps, real: real)
            writer.fileSystem = stopping
            var files: [(name: String, contents: String)] = [("a.csv", "new a"), ("b.md", "new b"), ("c.json", "new c")]
            if let extra { files.append(extra) }
            _ = try? writer.write(files, removing: ["a-alerts.csv"])
            let finished = !stopping.died
            writer.fileSystem = real
            try writer.recover()
            let after = contents(of: folder)
            if expectNew && finished {
                #expect(after == Self.new, "a whole commit of \(steps) steps")
            } else {
                #expect(after == Self.old || after == Self.new, "stopped after step \(steps): \(after.keys.sorted())")
            }
            if !expectNew { #expect(after == Self.old, "a failing commit stopped after step \(steps)") }
            if finished { return steps }
            steps += 1
            if steps > 200 {
                Issue.record("the commit never finished")
                return steps
            }
        }
    }

    @Test("stopped after any step, recovery leaves the whole previous set or the whole new one")
    func everyStep() throws {
        let steps = try Self.stopAtEveryStep()
        // Three files staged, two kept aside, the journal written, renamed and synced, three
        // renames, one removal, and the clean-up: every one of them was a stopping point.
        #expect(steps >= 12)
    }

    @Test("stopped after any step without hard links (copies kept aside), the same")
    func everyStepWithoutHardLinks() throws {
        #expect(try Self.stopAtEveryStep(real: NoHardLinks()) >= 12)
    }

    @Test("a commit whose last rename fails, stopped at any step of its roll-back, leaves the previous set")
    func everyStepOfARollBack() throws {
        // d.json is staged like any other and fails at its rename, in the run and in recovery.
        try Self.stopAtEveryStep(real: FailingRename(failing: "d.json"), failing: ("d.json", "new d"), expectNew: false)
    }

    @Test("the issue's case: killed at the second rename, then a failing run; the new set is whole and the old CSV not lost")
    func killedAtSecondRename() throws {
        let folder = try TemporaryFolder()
        var writer = ReportWriter(directory: folder.url)
        try writer.write([("r.csv", "old csv"), ("r.md", "old md")])
        // Stage two files, keep two aside, journal (3 steps), one rename: then the kill.
        let stopping = StoppingFileSystem(after: 8)
        writer.fileSystem = stopping
        _ = try? writer.write([("r.csv", "new csv"), ("r.md", "new md")])
        #expect(stopping.died)
        let mixed = Self.contents(of: folder).filter { !$0.key.hasPrefix(".") }
        #expect(mixed == ["r.csv": "new csv", "r.md": "old md"], "the kill landed between the renames")
        writer.fileSystem = POSIXCommitFileSystem()
        try writer.recover()
        #expect(Self.contents(of: folder) == ["r.csv": "new csv", "r.md": "new md"])
    }

    @Test("a journal that is a symbolic link is refused, not followed")
    func journalSymlink() throws {
        let folder = try TemporaryFolder()
        symlink("/etc/passwd", folder.url.appendingPathComponent(".cryptoreport-journal").path)
        #expect(throws: OutputError.self) { try ReportWriter(directory: folder.url).recover() }
    }

    @Test("a damaged journal stops the run with a clear error instead of guessing")
    func damagedJournal() throws {
        let folder = try TemporaryFolder()
        try Data("{\"version\":1,\"replacements\":[{\"name\":\"../x\",\"staged\":\"y\"}],\"removals\":[]}".utf8)
            .write(to: folder.url.appendingPathComponent(".cryptoreport-journal"))
        do {
            try ReportWriter(directory: folder.url).recover()
            Issue.record("a damaged journal was accepted")
        } catch {
            #expect(error.errorDescription?.contains("the journal of an interrupted commit is damaged") == true)
            #expect(error.exitStatus == .cannotCreateOutput)
        }
    }

    /// The planted journal of issue 32: names through a sub-folder that links out of the shared folder.
    static func plant(_ journal: String, in folder: TemporaryFolder) throws {
        try Data(journal.utf8).write(to: folder.url.appendingPathComponent(CommitJournal.fileName))
    }

    @Test("a journal planted by another user of a shared folder cannot make recovery touch files outside it")
    func plantedJournalThroughALink() throws {
        let folder = try TemporaryFolder()
        let home = try TemporaryFolder()
        try Data("the owner's".utf8).write(to: home.url.appendingPathComponent("victim"))
        try Data("the member's".utf8).write(to: folder.url.appendingPathComponent("evil.txt"))
        #expect(symlink(home.url.path, folder.url.appendingPathComponent("d").path) == 0)
        try Self.plant(
            #"{"version":1,"replacements":[{"name":"d/planted","staged":"evil.txt"}],"removals":[{"name":"d/victim","aside":"x.gone"}]}"#,
            in: folder)
        do {
            try ReportWriter(directory: folder.url).recover()
            Issue.record("a planted journal was carried out")
        } catch {
            #expect(error.errorDescription?.contains("not one this tool wrote") == true)
        }
        #expect(try String(contentsOf: home.url.appendingPathComponent("victim"), encoding: .utf8) == "the owner's")
        #expect(!FileManager.default.fileExists(atPath: home.url.appendingPathComponent("planted").path))
        #expect(Self.contents(of: home).keys.sorted() == ["victim"])
        // Left for a person, as it was.
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(CommitJournal.fileName).path))
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("evil.txt").path))
    }

    @Test("a journal whose staged, kept-aside or outgoing names are not the ones the tool makes is refused")
    func journalOfForeignNames() throws {
        let foreign = [
            #"{"version":1,"replacements":[{"name":"a.csv","staged":"evil.txt"}],"removals":[]}"#,
            #"{"version":1,"replacements":[{"name":"a.csv","staged":".a.csv.1A2B3C4D.tmp","backup":".bashrc"}],"removals":[]}"#,
            #"{"version":1,"replacements":[{"name":".bashrc","staged":"..bashrc.1A2B3C4D.tmp"}],"removals":[]}"#,
            #"{"version":1,"replacements":[],"removals":[{"name":"a.csv","aside":".b.csv.1A2B3C4D.gone.tmp"}]}"#,
            #"{"version":1,"replacements":[{"name":"..","staged":"...1A2B3C4D.tmp"}],"removals":[]}"#,
            #"{"version":1,"replacements":[{"name":"d/a.csv","staged":".d/a.csv.1A2B3C4D.tmp"}],"removals":[]}"#,
            // A slash followed by a combining mark is one Character, but still a slash on disk.
            #"{"version":1,"replacements":[{"name":"d/́a.csv","staged":".d/́a.csv.1A2B3C4D.tmp"}],"removals":[]}"#,
            #"{"version":1,"replacements":[],"removals":[{"name":"d/‌victim","aside":".d/‌victim.1A2B3C4D.gone.tmp"}]}"#,
            #"{"version":2,"replacements":[],"removals":[]}"#,
        ]
        for text in foreign {
            let folder = try TemporaryFolder()
            try Data("the owner's a".utf8).write(to: folder.url.appendingPathComponent("a.csv"))
            try Data("planted".utf8).write(to: folder.url.appendingPathComponent("evil.txt"))
            try Self.plant(text, in: folder)
            #expect(throws: OutputError.self, "\(text)") { try ReportWriter(directory: folder.url).recover() }
            #expect(Self.contents(of: folder)["a.csv"] == "the owner's a", "\(text)")
        }
        // The tool's own journal of the same shape is carried out.
        let folder = try TemporaryFolder()
        try Data("new a".utf8).write(to: folder.url.appendingPathComponent(".a.csv.1A2B3C4D.tmp"))
        try Self.plant(#"{"version":1,"replacements":[{"name":"a.csv","staged":".a.csv.1A2B3C4D.tmp"}],"removals":[]}"#, in: folder)
        try ReportWriter(directory: folder.url).recover()
        #expect(Self.contents(of: folder) == ["a.csv": "new a"])
    }

    @Test("a link planted under a staged name is never published under a report's name")
    func stagedLinkNotPublished() throws {
        let folder = try TemporaryFolder()
        let home = try TemporaryFolder()
        try Data("secret".utf8).write(to: home.url.appendingPathComponent("id"))
        #expect(symlink(home.url.appendingPathComponent("id").path, folder.url.appendingPathComponent(".index.html.1A2B3C4D.tmp").path) == 0)
        try Self.plant(#"{"version":1,"replacements":[{"name":"index.html","staged":".index.html.1A2B3C4D.tmp"}],"removals":[]}"#, in: folder)
        try ReportWriter(directory: folder.url).recover()
        var info = stat()
        #expect(lstat(folder.url.appendingPathComponent("index.html").path, &info) != 0, "no index.html, and surely no link")
        #expect(Self.contents(of: folder).isEmpty)
        #expect(try String(contentsOf: home.url.appendingPathComponent("id"), encoding: .utf8) == "secret")
    }

    @Test("the writer refuses a report name that is not one plain file name")
    func plainNamesOnly() throws {
        let folder = try TemporaryFolder()
        for name in ["d/a.csv", "../a.csv", ".hidden", "", "d/\u{301}a.csv", "a\u{0}b"] {
            #expect(throws: OutputError.self, "\(name)") { try ReportWriter(directory: folder.url).write([(name, "x")]) }
        }
        #expect(Self.contents(of: folder).isEmpty)
    }

    /// Issue 32 and the one commit step of issue 29: a kill at 40 of 102 points published run
    /// B's reports while B was never recorded in the history.
    @Test("stopped after any step of a commit that records its day, recovery leaves the reports and the day together")
    func everyStepWithTheDay() throws {
        var steps = 0
        while true {
            let folder = try TemporaryFolder()
            let history = folder.url.appendingPathComponent("h.sqlite").path
            let store = try HistoryStore(path: history)
            var writer = ReportWriter(directory: folder.url)
            try writer.write([("a.csv", "old a"), ("b.md", "old b")])
            let stopping = StoppingFileSystem(after: steps)
            writer.fileSystem = stopping
            let real = DayRecord(try HistoryTests.snapshot(daysAgo: 1, factor: 1), in: store)
            let day = DayRecord(
                history: real.history, sourceTime: real.sourceTime, record: { try stopping.ifAlive { try real.record() } ?? false },
                forget: { _ = try? stopping.ifAlive { real.forget() } })
            _ = try? writer.write(files: [.init(name: "a.csv", contents: .text("new a")), .init(name: "b.md", contents: .text("new b"))], recording: day)
            let finished = !stopping.died
            writer.fileSystem = POSIXCommitFileSystem()
            // Recovery reads the day from the history the journal names, whatever (or whether)
            // history the recovering run uses.
            try writer.recover()
            let recorded = try store.runs(in: Date.distantPast...Date.distantFuture).count == 1
            let reports = Self.contents(of: folder).filter { ["a.csv", "b.md"].contains($0.key) }
            let isNew = reports == ["a.csv": "new a", "b.md": "new b"]
            #expect(isNew || reports == ["a.csv": "old a", "b.md": "old b"], "stopped after step \(steps): \(reports)")
            #expect(isNew == recorded, "stopped after step \(steps): reports \(isNew ? "new" : "old"), day \(recorded ? "" : "not ")recorded")
            #expect(
                !Self.contents(of: folder).keys.contains { $0.hasPrefix(".") },
                "no journal or temporary file after step \(steps): \(Self.contents(of: folder).keys.sorted())")
            if finished {
                #expect(isNew)
                break
            }
            steps += 1
            if steps > 100 {
                Issue.record("the commit never finished")
                break
            }
        }
        #expect(steps >= 10)
    }

    /// Issue 32, row 4: a run finishing the commit with another spelling of the history (or none)
    /// rolled it forward without the day.
    @Test("the journal names the history by its absolute path, so that any later run checks the same database")
    func journalNamesAbsoluteHistory() throws {
        let folder = try TemporaryFolder()
        let journal = folder.url.appendingPathComponent(CommitJournal.fileName)
        let seen = Mutex<String?>(nil)
        let day = DayRecord(
            history: "relative/h.sqlite", sourceTime: 1,
            record: {
                let named = try JSONDecoder().decode(CommitJournal.self, from: Data(contentsOf: journal)).records?.history
                seen.withLock { $0 = named }
                return true
            }, forget: {})
        _ = try ReportWriter(directory: folder.url).write(files: [.init(name: "a.csv", contents: .text("a"))], recording: day)
        #expect(seen.withLock { $0 } == FileManager.default.currentDirectoryPath + "/relative/h.sqlite")
    }

    @Test("a journal naming a history that is a FIFO is not held in its open: the commit is judged unreadable, not waited on")
    func journalNamesFIFOHistory() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("h.sqlite").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(HistoryStore.holdsRun(at: fifo, sourceTime: 1) == nil)
        // Not there (mounted elsewhere, or named relatively by an older journal): not known.
        #expect(HistoryStore.holdsRun(at: folder.url.appendingPathComponent("none.sqlite").path, sourceTime: 1) == nil)
    }

    @Test("a day that cannot be recorded: the reports are published, the journal no longer names the day, and the run is told")
    func dayNotRecorded() throws {
        let folder = try TemporaryFolder()
        struct Refused: Error {}
        let day = DayRecord(history: "h.sqlite", sourceTime: 1, record: { throw Refused() }, forget: {})
        let committed = try ReportWriter(directory: folder.url).write(files: [.init(name: "a.csv", contents: .text("a"))], recording: day)
        #expect(committed.notRecorded is Refused)
        #expect(Self.contents(of: folder) == ["a.csv": "a"])
    }

    /// The review of issue 32's fix: a link planted under a backup's name, with no journal, went
    /// back under the report's name.
    @Test("a link planted as a kept-aside report is never put back under a report's name")
    func plantedBackupLink() throws {
        let folder = try TemporaryFolder()
        let home = try TemporaryFolder()
        try Data("secret".utf8).write(to: home.url.appendingPathComponent("id"))
        #expect(symlink(home.url.appendingPathComponent("id").path, folder.url.appendingPathComponent(".index.html.1A2B3C4D.old.tmp").path) == 0)
        try ReportWriter(directory: folder.url).recover()
        var info = stat()
        #expect(lstat(folder.url.appendingPathComponent("index.html").path, &info) != 0, "no index.html, and surely no link")
        #expect(Self.contents(of: folder).isEmpty)
    }
}
