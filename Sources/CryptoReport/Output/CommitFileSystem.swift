package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calls by which `ReportWriter` changes an output folder, one per step of a commit.
///
/// Every call that changes the disk goes through here, so that a test can stop a commit after any
/// step, as a `kill -9` would, and check what recovery makes of the folder. Reads (`lstat`, the
/// journal) go to the disk directly: they change nothing. Each call returns 0 or an `errno`.
package protocol CommitFileSystem: Sendable {
    /// Creates `path` (never through a symbolic link, never over an existing file), writes
    /// `data` and syncs it to disk.
    func createSynced(_ path: String, _ data: Data) -> Int32
    /// `createSynced` of bytes the caller holds, so that a report's text need not be copied
    /// into a `Data` first. The bytes are valid only during the call.
    func createSynced(_ path: String, bytes: UnsafeRawBufferPointer) -> Int32
    /// `createSynced` of bytes that `produce` hands to `write` a piece at a time (each valid only
    /// during that call), so that a large report is never whole in memory.
    func createSynced(_ path: String, producing produce: (_ write: (UnsafeRawBufferPointer) -> Void) -> Void) -> Int32
    /// `link(2)`: keeps a previous report aside at no cost.
    func hardLink(_ existing: String, _ new: String) -> Int32
    /// A synced copy, where the file system has no hard links (FAT, some network file systems).
    func copySynced(_ existing: String, _ new: String) -> Int32
    func rename(_ from: String, _ to: String) -> Int32
    func unlink(_ path: String) -> Int32
    /// `fsync` on the folder, so that the renames and links made in it are on disk.
    func syncDirectory(_ path: String) -> Int32
}

extension CommitFileSystem {
    /// A test's file system sees the bytes as the `Data` it already handles.
    package func createSynced(_ path: String, bytes: UnsafeRawBufferPointer) -> Int32 {
        createSynced(path, Data(bytes))
    }

    /// A test's file system gets the pieces joined, in one `createSynced`.
    package func createSynced(_ path: String, producing produce: (_ write: (UnsafeRawBufferPointer) -> Void) -> Void) -> Int32 {
        var data = Data()
        produce { data.append(contentsOf: $0) }
        return createSynced(path, data)
    }
}

/// The real file system.
package struct POSIXCommitFileSystem: CommitFileSystem {
    package init() {}

    package func createSynced(_ path: String, _ data: Data) -> Int32 {
        data.withUnsafeBytes { createSynced(path, bytes: $0) }
    }

    package func createSynced(_ path: String, bytes raw: UnsafeRawBufferPointer) -> Int32 {
        createSynced(path) { write in write(raw) }
    }

    package func createSynced(_ path: String, producing produce: (_ write: (UnsafeRawBufferPointer) -> Void) -> Void) -> Int32 {
        // 0666 less the umask, as any program's files, so that a second user of a group's
        // folder (umask 002) can replace them.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { return errno }
        // After a failed write the rest is not written: the file is removed below.
        var failure: Int32 = 0
        produce { piece in
            guard failure == 0, var start = piece.baseAddress else { return }
            var left = piece.count
            while left > 0 {
                let written = posixWrite(descriptor, start, left)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                start += written
                left -= written
            }
        }
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure != 0 { _ = posixUnlink(path) }
        return failure
    }

    package func hardLink(_ existing: String, _ new: String) -> Int32 {
        link(existing, new) == 0 ? 0 : errno
    }

    /// A mebibyte at a time, so that no second copy of a large report is held in memory while
    /// the `latest` copy is made.
    package func copySynced(_ existing: String, _ new: String) -> Int32 {
        // Never through a link: a report swapped for a link between its check and this open.
        let source = open(existing, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard source >= 0 else { return errno }
        defer { close(source) }
        let descriptor = open(new, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { return errno }
        var failure: Int32 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        copying: while let base = buffer.baseAddress {
            let read = posixRead(source, base, buffer.count)
            if read < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            if read == 0 { break }
            var offset = 0
            while offset < read {
                let written = posixWrite(descriptor, base + offset, read - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break copying
                }
                offset += written
            }
        }
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure != 0 { _ = posixUnlink(new) }
        return failure
    }

    package func rename(_ from: String, _ to: String) -> Int32 {
        posixRename(from, to) == 0 ? 0 : errno
    }

    package func unlink(_ path: String) -> Int32 {
        posixUnlink(path) == 0 ? 0 : errno
    }

    package func syncDirectory(_ path: String) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        // Some file systems cannot sync a folder (EINVAL); their renames are as durable as they get.
        return fsync(descriptor) == 0 || errno == EINVAL ? 0 : errno
    }
}

#if canImport(Glibc)
    private let posixWrite = Glibc.write
    private let posixRead = Glibc.read
    private let posixRename = Glibc.rename
    private let posixUnlink = Glibc.unlink
#elseif canImport(Darwin)
    private let posixWrite = Darwin.write
    private let posixRead = Darwin.read
    private let posixRename = Darwin.rename
    private let posixUnlink = Darwin.unlink
#endif
