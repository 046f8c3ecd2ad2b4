import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes rendered reports into a folder, all or nothing.
///
/// Every report first goes to a hidden temporary file in the same folder and is synced to disk;
/// only when all of them are written are they renamed over their final names. A reader never sees
/// half a report, and a run that fails part-way replaces nothing.
public struct ReportWriter: Sendable {
    public var directory: URL

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
            throw .cannotCreateDirectory(path: path, reason: Self.reason(for: error))
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw .notWritable(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Removes temporary files a killed run left behind. Call it only while holding the folder's
    /// `OutputLock`: then no other run can be writing them.
    public func removeLeftovers() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where Self.isTemporaryName(name) {
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    /// `.cryptoreport-2022-11-22-SEK.csv.1A2B3C4D.tmp`
    static func isTemporaryName(_ name: String) -> Bool {
        name.hasPrefix(".cryptoreport-") && name.hasSuffix(".tmp")
    }

    /// Writes `files` (file name → contents) and returns their paths in the given order.
    @discardableResult
    public func write(_ files: [(name: String, contents: String)]) throws(OutputError) -> [URL] {
        try prepare()
        var staged: [(temporary: URL, final: URL)] = []
        do throws(OutputError) {
            for file in files {
                let final = directory.appendingPathComponent(file.name)
                let temporary = try stage(Data(file.contents.utf8), for: final)
                staged.append((temporary, final))
            }
            for item in staged {
                guard rename(item.temporary.path, item.final.path) == 0 else {
                    throw OutputError.writeFailed(path: item.final.path, reason: String(cString: strerror(errno)))
                }
            }
        } catch {
            for item in staged { unlink(item.temporary.path) }
            throw error
        }
        return staged.map(\.final)
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
