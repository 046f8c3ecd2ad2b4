package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes rendered reports into a folder, all or nothing, even across a `kill -9`.
///
/// A commit goes in steps, each durable before the next: every new report is written to a hidden
/// temporary file in the folder and synced; every report it replaces is kept aside (a hard link,
/// else a copy); the whole set of renames is recorded in a journal (`.cryptoreport-journal`),
/// synced with the folder; then the renames run, one per report. The next run or subcommand that
/// uses the folder calls `recover()` before anything else: a journal still there is finished
/// (rolled forward), so that the folder holds the whole previous set or the whole new set, never
/// a mix. A rename that fails puts back everything the commit had replaced (rolled back), and a
/// report kept aside is deleted only once a report of its name is in place.
package struct ReportWriter: Sendable {
    package var directory: URL
    /// Every change to the folder goes through here; tests stop a commit after any step.
    package var fileSystem: any CommitFileSystem = POSIXCommitFileSystem()

    package init(directory: URL) {
        self.directory = directory
    }

    /// Creates the folder if needed and proves it writable, so that a run fails before it fetches
    /// anything rather than after.
    package func prepare() throws(OutputError) {
        let path = directory.path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreateDirectory(path: path, reason: Self.blockingFile(on: directory) ?? Self.reason(for: error))
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw .notWritable(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Finishes the commit a killed run left in the folder, then removes its temporary files. Call
    /// it only while holding the folder's `OutputLock`, before reading or writing anything there.
    ///
    /// A journal ready to roll forward is rolled forward; one being rolled back is rolled back.
    /// Without a journal no report was replaced yet: staged files go, and a report kept aside goes
    /// back under its name if nothing took its place (never is the only copy of a report deleted).
    ///
    /// A commit that was to record its day in a history (the journal names the database by its
    /// absolute path) is rolled forward only if the day is stored there (the crash came after the
    /// day's commit), and back if it is not, so that reports and day go together, whichever
    /// history (or none) the recovering run uses.
    package func recover() throws(OutputError) {
        try RunInterruption.shared.uninterrupted { () throws(OutputError) in try recoverNow() }
    }

    func recoverNow() throws(OutputError) {
        if let found = try CommitJournal.read(in: directory) {
            guard let journal = found.journal else {
                throw .writeFailed(
                    path: path(found.file),
                    reason:
                        "the journal of an interrupted commit is damaged or not one this tool wrote (it names files outside the folder's own), so it was left as it is and the reports in the folder may be a mix of two runs; check them, then remove the journal"
                )
            }
            switch found.direction {
            case .forward:
                if let records = journal.records, HistoryStore.holdsRun(at: records.history, sourceTime: records.sourceTime) == false {
                    // Killed before the day's commit: as if no rename was decided.
                    _ = rollBack(journal, failed: CommitJournal.fileName, reason: "")
                } else {
                    // A rename that fails again rolls the commit back: the previous set is
                    // whole, which is all this run needs. A folder that cannot be synced once the
                    // reports are in place is this run's error too (73): the journal stays.
                    if (try? renameAll(journal)) != nil { try finish(journal) }
                }
            case .back: finishRollBack(journal)
            }
        }
        removeLeftovers()
    }

    /// Temporary files with no journal: a run killed while staging, or by an older version.
    func removeLeftovers() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where Self.isTemporaryName(name) {
            // Only a regular file goes back under a report's name: never a link planted as a backup.
            if let original = Self.originalName(ofBackup: name), isRegularFile(name), !isRegularFile(original),
                fileSystem.rename(path(name), path(original)) == 0
            {
                continue
            }
            _ = fileSystem.unlink(path(name))
        }
    }

    /// One file name in the folder itself: not empty, no `/` (a name through a sub-folder could
    /// follow a link out of the folder), not `.` or `..`, not hidden (hidden names are the
    /// commit's own temporary files, save the folder's record `SharedFolder.recordName`), no
    /// control character.
    package static func isPlainFileName(_ name: String) -> Bool {
        // Bytes, not `Character`s: a `/` followed by a combining mark is one `Character`, which
        // `contains("/")` would not find, while the file system still reads a `/`.
        if name.utf8.elementsEqual(SharedFolder.recordName.utf8) { return true }
        return !name.isEmpty && name.utf8.first != UInt8(ascii: ".") && !name.utf8.contains(UInt8(ascii: "/"))
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.value == 0 }
    }

    /// `.cryptoreport-2022-11-22-SEK.csv.1A2B3C4D.old.tmp` → `cryptoreport-2022-11-22-SEK.csv`.
    static func originalName(ofBackup name: String) -> String? {
        guard name.hasPrefix("."), name.hasSuffix(".old.tmp") else { return nil }
        let middle = name.dropFirst().dropLast(".old.tmp".count)
        guard let dot = middle.lastIndex(of: "."), middle.distance(from: dot, to: middle.endIndex) == 9 else { return nil }
        let original = String(middle[..<dot])
        return isPlainFileName(original) ? original : nil
    }

    /// `.cryptoreport-2022-11-22-SEK.csv.1A2B3C4D.tmp` (or `.old.tmp`, `.gone.tmp`): a dot, a name,
    /// eight hexadecimal digits; and the journal while it is written.
    static func isTemporaryName(_ name: String) -> Bool {
        if name == CommitJournal.temporaryFileName { return true }
        guard name.hasPrefix(".") else { return false }
        var stem = Substring(name)
        for suffix in [".old.tmp", ".gone.tmp", ".tmp"] where stem.hasSuffix(suffix) {
            stem = stem.dropLast(suffix.count)
            break
        }
        guard stem.count < name.count, let dot = stem.lastIndex(of: ".") else { return false }
        let tag = stem[stem.index(after: dot)...]
        return stem[..<dot].count > 1 && tag.count == 8 && tag.allSatisfy(\.isHexDigit)
    }

    /// Writes `files` (file name → contents), removes the `obsolete` names (a report of this run
    /// that no longer applies, such as an alerts file when none fired), and returns the written
    /// paths in the given order.
    ///
    /// All or nothing: every file is staged and synced, every name checked and every replaced
    /// report kept aside, and the journal recorded, before the first rename.
    @discardableResult
    package func write(_ files: [(name: String, contents: String)], removing obsolete: [String] = []) throws(OutputError) -> [URL] {
        try write(files: files.map { File(name: $0.name, contents: .text($0.contents)) }, removing: obsolete)
    }

    /// One file of a commit.
    package struct File {
        package enum Contents {
            case text(String)
            /// Made when the file is staged, and let go once it is on disk: a run then holds one
            /// report's text at a time, not every format's at once.
            case rendered(() throws -> String)
            /// Written as it is made, a piece at a time, by a report that cannot fail (the HTML
            /// page): never whole in memory.
            case streamed((_ piece: @escaping (String) -> Void) -> Void)
            /// Bytes handed to `write` a piece at a time as the report is made (each valid only
            /// during that call): no format's whole text is in memory. A report that cannot be
            /// made fails the commit, and its partly written file goes.
            case bytes((_ write: (UnsafeRawBufferPointer) -> Void) throws -> Void)
            /// The same bytes as the file of that name staged earlier in the commit (a `latest` copy).
            case copy(of: String)
        }

        package var name: String
        package var contents: Contents

        package init(name: String, contents: Contents) {
            self.name = name
            self.contents = contents
        }
    }

    /// `write(_:removing:)` for files whose contents are made or copied as they are staged. A
    /// report that cannot be made fails the commit before any report is replaced.
    @discardableResult
    package func write(files: [File], removing obsolete: [String] = []) throws(OutputError) -> [URL] {
        try write(files: files, removing: obsolete, recording: nil).written
    }

    /// What a commit did.
    package struct Committed {
        /// The files put in place, in the order given.
        package var written: [URL]
        /// Why the day was not recorded, when `recording` failed: the reports are in place, and
        /// the run must say which day the history lacks.
        package var notRecorded: (any Error)?
    }

    /// The one commit step of a run: its files staged, its day recorded in the history
    /// (`recording`) and the files published, in one uninterrupted stretch (a signal waits for
    /// it) and under one journal, so that after a crash at any point the next run leaves both the
    /// reports and the day, or neither. The day is stored once the journal is synced and before
    /// the first rename; a rename that fails then puts the previous reports back and takes the
    /// day out again.
    package func write(files: [File], removing obsolete: [String] = [], recording: DayRecord?) throws(OutputError) -> Committed {
        try RunInterruption.shared.uninterrupted { () throws(OutputError) in
            try commit(files, removing: obsolete, recording: recording)
        }
    }

    func commit(_ files: [File], removing obsolete: [String], recording: DayRecord?) throws(OutputError) -> Committed {
        try prepare()
        var journal = CommitJournal(replacements: [], removals: [])
        // What to delete if the commit fails before its first rename: nothing else has changed.
        var created: [String] = []
        do throws(OutputError) {
            for name in files.map(\.name) + obsolete where !Self.isPlainFileName(name) {
                throw .writeFailed(path: path(name), reason: "a report's name must be one plain file name in the folder")
            }
            var stagedNames: [String: String] = [:]
            for file in files {
                let staged = Self.hiddenName(for: file.name, suffix: "tmp")
                try stage(file, as: staged, stagedNames: stagedNames)
                created.append(staged)
                stagedNames[file.name] = staged
                journal.replacements.append(.init(name: file.name, staged: staged, backup: nil))
            }
            // A folder in the way of one report must fail the run before any report is replaced.
            for item in journal.replacements { try Self.checkReplaceable(directory.appendingPathComponent(item.name)) }
            for index in journal.replacements.indices where isRegularFile(journal.replacements[index].name) {
                let name = journal.replacements[index].name
                let backup = Self.hiddenName(for: name, suffix: "old.tmp")
                // A report that cannot be kept aside is not replaced: a later failure could not
                // put it back.
                var error = fileSystem.hardLink(path(name), path(backup))
                if error != 0 { error = fileSystem.copySynced(path(name), path(backup)) }
                guard error == 0 else {
                    throw .writeFailed(path: path(name), reason: "cannot keep the previous report aside: \(String(cString: strerror(error)))")
                }
                created.append(backup)
                journal.replacements[index].backup = backup
            }
            for name in obsolete where isRegularFile(name) {
                journal.removals.append(.init(name: name, aside: Self.hiddenName(for: name, suffix: "gone.tmp")))
            }
            // By its absolute path: the run that finishes this commit may start elsewhere.
            journal.records = recording.map {
                CommitJournal.Recorded(history: URL(fileURLWithPath: $0.history).standardizedFileURL.path, sourceTime: $0.sourceTime)
            }
            created.append(CommitJournal.fileName)
            try writeJournal(journal)
        } catch {
            for name in created.reversed() { _ = fileSystem.unlink(path(name)) }
            throw error
        }
        // Decided: from here a crash is finished by the next run. The day first, then the renames.
        var notRecorded: (any Error)?
        var inserted = false
        if let recording {
            do {
                inserted = try recording.record()
            } catch {
                // The reports go out without their day, which the run then names (74): the
                // journal says so first, lest recovery take the missing day for a crash before it.
                notRecorded = error
                journal.records = nil
                do throws(OutputError) {
                    try writeJournal(journal)
                } catch {
                    // Marked as rolling back first, so that no journal naming the day is left.
                    _ = rollBack(journal, failed: CommitJournal.fileName, reason: "")
                    throw error
                }
            }
        }
        do {
            try renameAll(journal)
        } catch {
            if inserted { recording?.forget() }
            throw error
        }
        try finish(journal)
        return Committed(written: journal.replacements.map { directory.appendingPathComponent($0.name) }, notRecorded: notRecorded)
    }

    /// Writes `journal` under its temporary name, synced, renames it into place and syncs the folder.
    func writeJournal(_ journal: CommitJournal) throws(OutputError) {
        do throws(OutputError) {
            try check(fileSystem.createSynced(path(CommitJournal.temporaryFileName), journal.encoded()), CommitJournal.fileName)
            try check(fileSystem.rename(path(CommitJournal.temporaryFileName), path(CommitJournal.fileName)), CommitJournal.fileName)
        } catch {
            _ = fileSystem.unlink(path(CommitJournal.temporaryFileName))
            throw error
        }
        try check(fileSystem.syncDirectory(directory.path), CommitJournal.fileName)
    }

    /// `.a.csv.1A2B3C4D.tmp`, `.a.csv.1A2B3C4D.old.tmp` (a previous report), `.a.csv.1A2B3C4D.gone.tmp`
    /// (an outdated one on its way out), always in the folder itself.
    static func hiddenName(for name: String, suffix: String) -> String {
        ".\((name as NSString).lastPathComponent).\(UUID().uuidString.prefix(8)).\(suffix)"
    }

    /// The text's own UTF-8 bytes written: a `Data` copy of it doubled the memory a large
    /// report takes while it is staged.
    func create(_ name: String, _ text: String) -> Int32 {
        var text = text
        return text.withUTF8 { fileSystem.createSynced(path(name), bytes: UnsafeRawBufferPointer($0)) }
    }

    func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    func check(_ error: Int32, _ name: String) throws(OutputError) {
        if error != 0 { throw .writeFailed(path: path(name), reason: String(cString: strerror(error))) }
    }

    func exists(_ name: String) -> Bool {
        var info = stat()
        return lstat(path(name), &info) == 0
    }

    func isRegularFile(_ name: String) -> Bool {
        var info = stat()
        return lstat(path(name), &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// A name a report can be renamed over: free, or a file (not a folder).
    static func checkReplaceable(_ final: URL) throws(OutputError) {
        var info = stat()
        guard lstat(final.path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw .writeFailed(path: final.path, reason: "a folder of that name is in the way")
        }
    }

    /// Foundation's error for a file where a folder should be is vague; name the file.
    static func blockingFile(on directory: URL) -> String? {
        var folder = directory.standardizedFileURL
        while folder.path != "/" {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
                return isFolder.boolValue ? nil : "\(folder.path) is a file, not a folder"
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    static func reason(for error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        switch nsError.code {
        case NSFileWriteNoPermissionError: return "permission denied"
        case NSFileWriteFileExistsError: return "a file of that name is in the way"
        case NSFileWriteOutOfSpaceError: return "the disk is full"
        case NSFileWriteVolumeReadOnlyError: return "the volume is read-only"
        default: return "the file system refused"
        }
    }
}

extension ReportWriter {
    /// For a subcommand that uses a file in an output folder (the history database): finishes a
    /// commit a killed run left there, unless another run holds the folder (that run is either
    /// committing, or will finish it itself).
    package static func finishInterruptedCommit(inFolderOf file: String) throws(OutputError) {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        var info = stat()
        let journals = [CommitJournal.fileName, CommitJournal.undoFileName]
        guard journals.contains(where: { lstat(folder.appendingPathComponent($0).path, &info) == 0 }) else { return }
        guard let lock = try OutputLock.acquireIfFree(in: folder) else { return }
        try ReportWriter(directory: folder).recover()
        withExtendedLifetime(lock) {}
    }
}
