import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes rendered reports into a folder, all or nothing.
///
/// Every report first goes to a hidden temporary file in the same folder and is synced to disk;
/// only when all of them are written, and every name is free or a file, are they renamed over
/// their final names, and a rename that fails puts back what the earlier ones replaced. A reader
/// never sees half a report, and a run that fails part-way replaces nothing.
public struct ReportWriter: Sendable {
    public var directory: URL
    /// `link(2)`; tests stand in a file system without hard links.
    var hardLink: @Sendable (String, String) -> Int32 = { link($0, $1) }

    public init(directory: URL) {
        self.directory = directory
    }

    /// Creates the folder if needed and proves it writable, so that a run fails before it fetches
    /// anything rather than after.
    public func prepare() throws(OutputError) {
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

    /// Removes temporary files a killed run left behind. Call it only while holding the folder's
    /// `OutputLock`: then no other run can be writing them.
    ///
    /// A previous report kept aside by a run killed while committing goes back under its name
    /// if nothing took its place, so that a kill at any moment leaves the previous reports intact.
    public func removeLeftovers() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where Self.isTemporaryName(name) {
            let leftover = directory.appendingPathComponent(name)
            if let original = Self.originalName(ofBackup: name), !Self.isRegularFile(directory.appendingPathComponent(original)),
                rename(leftover.path, directory.appendingPathComponent(original).path) == 0
            {
                continue
            }
            unlink(leftover.path)
        }
    }

    /// `.cryptoreport-2022-11-22-SEK.csv.1A2B3C4D.old.tmp` → `cryptoreport-2022-11-22-SEK.csv`.
    static func originalName(ofBackup name: String) -> String? {
        guard name.hasPrefix("."), name.hasSuffix(".old.tmp") else { return nil }
        let middle = name.dropFirst().dropLast(".old.tmp".count)
        guard let dot = middle.lastIndex(of: "."), middle.distance(from: dot, to: middle.endIndex) == 9 else { return nil }
        let original = String(middle[..<dot])
        return original.isEmpty || original.contains("/") ? nil : original
    }

    /// `.cryptoreport-2022-11-22-SEK.csv.1A2B3C4D.tmp`
    static func isTemporaryName(_ name: String) -> Bool {
        name.hasPrefix(".cryptoreport-") && name.hasSuffix(".tmp")
    }

    /// Writes `files` (file name → contents), removes the `obsolete` names (a report of this run
    /// that no longer applies, such as an alerts file when none fired), and returns the written
    /// paths in the given order.
    ///
    /// All or nothing: every file is staged and every name checked before the first rename, and
    /// a rename that still fails puts back every file already replaced or removed.
    @discardableResult
    public func write(_ files: [(name: String, contents: String)], removing obsolete: [String] = []) throws(OutputError) -> [URL] {
        try prepare()
        var staged: [(temporary: URL, final: URL)] = []
        do throws(OutputError) {
            for file in files {
                let final = directory.appendingPathComponent(file.name)
                let temporary = try stage(Data(file.contents.utf8), for: final)
                staged.append((temporary, final))
            }
            // A folder in the way of one report must fail the run before any report is replaced.
            for item in staged { try Self.checkReplaceable(item.final) }
            try commit(staged, removing: obsolete.map { directory.appendingPathComponent($0) })
        } catch {
            for item in staged { unlink(item.temporary.path) }
            throw error
        }
        return staged.map(\.final)
    }

    /// Renames the staged files over their names and moves the obsolete ones aside, keeping a hard
    /// link to every file it replaces until all renames have succeeded, to put them back if one
    /// fails. Backups carry the temporary-file pattern, so a run killed here leaves nothing that
    /// the next run does not clear.
    private func commit(_ staged: [(temporary: URL, final: URL)], removing obsolete: [URL]) throws(OutputError) {
        var undo: [(final: URL, backup: URL?)] = []
        func rollBack() {
            for step in undo.reversed() {
                if let backup = step.backup { rename(backup.path, step.final.path) } else { unlink(step.final.path) }
            }
        }
        for item in staged {
            var backup: URL?
            if Self.isRegularFile(item.final) {
                let candidate = backupURL(for: item.final)
                // A hard link costs nothing; without hard links (FAT, some network file systems)
                // a copy. A report that cannot be kept aside is not replaced: a later failure
                // could not put it back.
                guard hardLink(item.final.path, candidate.path) == 0
                    || (try? FileManager.default.copyItem(at: item.final, to: candidate)) != nil
                else {
                    let reason = String(cString: strerror(errno))
                    rollBack()
                    throw .writeFailed(path: item.final.path, reason: "cannot keep the previous report aside: \(reason)")
                }
                backup = candidate
            }
            guard rename(item.temporary.path, item.final.path) == 0 else {
                let reason = String(cString: strerror(errno))
                if let backup { unlink(backup.path) }
                rollBack()
                throw .writeFailed(path: item.final.path, reason: reason)
            }
            undo.append((item.final, backup))
        }
        // Last, once every report is in place; moved aside under a name the next run deletes and
        // never restores, so a run killed here cannot bring an outdated file back.
        for final in obsolete where Self.isRegularFile(final) {
            let backup = backupURL(for: final, suffix: "gone")
            guard rename(final.path, backup.path) == 0 else {
                let reason = String(cString: strerror(errno))
                rollBack()
                throw .writeFailed(path: final.path, reason: "cannot remove the outdated file: \(reason)")
            }
            undo.append((final, backup))
        }
        for step in undo { if let backup = step.backup { unlink(backup.path) } }
    }

    /// `.old.tmp`: a previous report, put back by the next run if a kill left its name free;
    /// `.gone.tmp`: an outdated one on its way out.
    private func backupURL(for final: URL, suffix: String = "old") -> URL {
        directory.appendingPathComponent(".\(final.lastPathComponent).\(UUID().uuidString.prefix(8)).\(suffix).tmp")
    }

    /// A name a report can be renamed over: free, or a file (not a folder).
    static func checkReplaceable(_ final: URL) throws(OutputError) {
        var info = stat()
        guard lstat(final.path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw .writeFailed(path: final.path, reason: "a folder of that name is in the way")
        }
    }

    private static func isRegularFile(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    private func stage(_ data: Data, for final: URL) throws(OutputError) -> URL {
        let temporary = directory.appendingPathComponent(
            ".\(final.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            throw .writeFailed(path: final.path, reason: String(cString: strerror(errno)))
        }
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let written = posixWrite(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure != 0 {
            unlink(temporary.path)
            throw .writeFailed(path: final.path, reason: String(cString: strerror(failure)))
        }
        return temporary
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

    private static func reason(for error: any Error) -> String {
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

#if canImport(Glibc)
    private let posixWrite = Glibc.write
#elseif canImport(Darwin)
    private let posixWrite = Darwin.write
#endif
