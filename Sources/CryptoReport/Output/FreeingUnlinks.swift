import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Deletes the files a commit kept aside, those whose deletion frees much space at the same time.
///
/// Deleting the last name of a large file waits on the file system (ext4 reads the bitmaps of
/// the blocks it frees): a 100,000-market run that replaced its own reports (a rerun of the same
/// day, as a benchmark does) spent 67 ms deleting the previous ones one after another, after
/// every report was in place, with nothing else left to do; at once, the waits overlap. A name
/// that is not a file's last, or a small file, is deleted at once, on this thread, in order; so
/// a daily run (whose previous `latest` copies are links to the previous day's reports) starts
/// no thread at all.
struct FreeingUnlinks {
    let fileSystem: any CommitFileSystem

    /// A file at least this large is deleted on a thread of its own.
    static let largeBytes = 4 << 20

    /// Deletes `paths`: in order, and on this thread only, when the file system steps in order.
    func unlink(_ paths: [String]) {
        guard fileSystem.stagesConcurrently else {
            for path in paths { _ = fileSystem.unlink(path) }
            return
        }
        var large: [String] = []
        for path in paths {
            var info = stat()
            if lstat(path, &info) == 0, info.st_nlink == 1, info.st_size >= Self.largeBytes {
                large.append(path)
            } else {
                _ = fileSystem.unlink(path)
            }
        }
        guard let first = large.first else { return }
        let done = DispatchGroup()
        for path in large.dropFirst() {
            done.enter()
            Thread { [fileSystem] in
                _ = fileSystem.unlink(path)
                done.leave()
            }.start()
        }
        _ = fileSystem.unlink(first)
        done.wait()
    }
}
