import Foundation
import GRDB

/// The snapshots of past runs, in an SQLite database (GRDB).
///
/// Prices are stored exactly, never as floating point: each reads back as the `Decimal` its plain
/// text parses to (`StoredNumber`; the schema in `HistoryStore+Schema.swift`). Each snapshot is
/// written in one transaction, and recording the same snapshot (same newest-ticker time) twice
/// stores it once.
package struct HistoryStore: Sendable {
    package let path: String
    let database: DatabaseQueue

    /// The file is read with `pread`, never memory-mapped: an I/O error on a mapped page ends the
    /// process with SIGBUS instead of an error a run can report and outlive.
    package init(path: String) throws(HistoryError) {
        self.path = path
        try Self.refuseSymbolicLinks(at: path)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw .cannotOpen(path: path, reason: "it is a folder; name a file in it, such as \(path.hasSuffix("/") ? path : path + "/")history.sqlite")
        }
        do {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // Made here, empty (a valid database), so that it is 0666 less the umask like the
            // reports: SQLite makes it 0644 whatever the umask, and a group sharing the history
            // (umask 002) could not record into it. Its journals take its mode.
            // Not SQLite's own names (`:memory:`, a `file:` URI), which are no file here.
            if path != ":memory:" && !path.hasPrefix("file:") {
                let made = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
                if made >= 0 { close(made) }
            }
            database = try DatabaseQueue(path: path, configuration: Self.configuration())
            let migrator = Self.migrator
            let all = Set(migrator.migrations)
            // Up to date, as nearly always: read without the lock, and no write transaction of
            // the migrator's (a read-only `history` took the database's write lock, behind any
            // report recording its run). A schema another run is making this moment may not
            // read yet ("no such table: grdb_migrations"): read again under the lock.
            var applied = (try? database.read { db in try migrator.appliedIdentifiers(db) }) ?? []
            if applied != all {
                let database = database
                try Self.migrating(in: folder) {
                    // Another run may have migrated while this one waited.
                    applied = try database.read { db in try migrator.appliedIdentifiers(db) }
                    guard applied != all else { return }
                    do {
                        try migrator.migrate(database)
                    } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY && applied.contains("v4") {
                        // A v4 file this user may only read is read as it is: v5 adds an index and v6
                        // the packed last prices, which the queries go without (more slowly); the
                        // next run that may write adds them.
                    }
                    // v4 left the v3 tables' pages free inside the file (as large as the data was):
                    // given back once, outside the migration's transaction. Interrupted, SQLite's own
                    // journal keeps the file whole, and the next run does without.
                    if applied.contains("v3") && !applied.contains("v4") { try database.vacuum() }
                }
            }
        } catch {
            throw .cannotOpen(path: path, reason: Self.describe(error))
        }
    }

    /// Runs `body` holding a lock on the database's folder, for as long as another run holds it.
    /// Two first runs at once (a SEK and a USD cron job on one history) both found no schema and
    /// both made it ("table run already exists", exit 74): GRDB's migrator decides what to run
    /// before its first transaction, and SQLite locks only within one. `flock` on the folder
    /// does not touch SQLite's own (`fcntl`) locks on the file. Waited for as long as SQLite
    /// waits for its own locks (10 s): the folder may be shared (the output folder, a home), and
    /// whatever else holds its lock must not hang a run; past that, or where it cannot be had,
    /// the migration runs as it did.
    static func migrating(in folder: URL, _ body: () throws -> Void) throws {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        let deadline = Date().addingTimeInterval(10)
        var locked = false
        while !locked {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                locked = true
            } else if errno == EWOULDBLOCK || errno == EINTR, Date() < deadline {
                usleep(20_000)
            } else {
                break
            }
        }
        defer { if locked { flock(descriptor, LOCK_UN) } }
        try body()
    }

    /// Whether the database at `path` holds the run of `sourceTime` (milliseconds), read without
    /// changing it (no migration, no file made); `nil` when it cannot be read. A hot rollback
    /// journal beside it (a transaction a crash left open) is not stored: SQLite rolls it back
    /// on the next write, so the run reads as absent.
    package static func holdsRun(at path: String, sourceTime: Int64) -> Bool? {
        // The path comes from a journal in a shared folder: a FIFO or a device there would hold
        // the run in SQLite's open, so only a regular file (or a link to one) is read.
        // Not found there (the folder mounted elsewhere, a journal of an older version that named
        // it relatively): not known, which recovery takes as stored.
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        if FileManager.default.fileExists(atPath: path + "-journal") { return false }
        var configuration = configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            return try queue.read { db in
                try Int64.fetchOne(db, sql: "SELECT id FROM run WHERE source_time = ?", arguments: [sourceTime]) != nil
            }
        } catch {
            return nil
        }
    }

    static func configuration() -> Configuration {
        // SQLite's defaults kept: a rollback journal and `synchronous = FULL`. A run commits
        // its snapshot once, after its reports are on disk; the journal's syncs (four, about a
        // millisecond on the benchmark's disk) are what make a completed run's day survive a
        // power cut, not only a crash of the program. WAL with `synchronous = NORMAL` would
        // save them but may lose the last commits to a power cut, and keeps `-wal`/`-shm`
        // files beside the database that a copy of `history.sqlite` alone would miss.
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // A small page cache: a run reads each page it needs once, so SQLite's default cache
        // would only grow the heap a page at a time.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -256") }
        return configuration
    }

    /// An in-memory store, for tests.
    package init() throws(HistoryError) {
        path = ":memory:"
        do {
            database = try DatabaseQueue()
            try Self.migrator.migrate(database)
        } catch {
            throw .cannotOpen(path: path, reason: Self.describe(error))
        }
    }

    // MARK: - Plumbing

    func read<T>(_ body: (Database) throws -> T) throws(HistoryError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw .failed(path: path, reason: Self.describe(error))
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws(HistoryError) -> T {
        do {
            return try database.write(body)
        } catch {
            throw .failed(path: path, reason: Self.describe(error))
        }
    }

    /// The cause in a few words, to stand in a sentence: Foundation's own ("The operation could
    /// not be completed. You don’t have permission.") read as a quote and ended in ".;".
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "SQLite error \(error.resultCode.rawValue)"
        }
        if let error = error as? CocoaError {
            switch error.code {
            case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied (its folder cannot be made or written)"
            case .fileWriteOutOfSpace: return "no space left on the device"
            case .fileWriteVolumeReadOnly: return "read-only file system"
            default: break
            }
        }
        var text = error.localizedDescription
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
