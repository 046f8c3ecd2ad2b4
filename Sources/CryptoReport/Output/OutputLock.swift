package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on an output folder, so that two runs started at once do not interleave.
///
/// `flock` on `.cryptoreport.lock` in the folder: the kernel drops it when the process ends,
/// however it ends, so a run killed with `kill -9` never leaves a stale lock behind.
package final class OutputLock: Sendable {
    package static let fileName = ".cryptoreport.lock"

    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
        RunInterruption.shared.holding(lock: descriptor)
    }

    /// Waits up to `timeout` seconds for the lock.
    /// - Parameter waiting: called once, if another run holds the lock: a run by hand during the
    ///   cron job's sat silent for up to `timeout`, and seemed to hang.
    package static func acquire(
        in directory: URL, timeout: TimeInterval, sleeper: any Sleeper = TaskSleeper(), waiting: () -> Void = {}
    ) async throws -> OutputLock {
        let path = directory.appendingPathComponent(fileName).path
        let descriptor = try openLockFile(in: directory)
        let started = Date()
        var saidWaiting = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            // Read before the warning's write, which may set its own.
            let error = errno
            guard error == EWOULDBLOCK || error == EINTR else {
                let reason = String(cString: strerror(error))
                close(descriptor)
                throw OutputError.notWritable(path: path, reason: reason)
            }
            guard Date().timeIntervalSince(started) < timeout else {
                close(descriptor)
                throw OutputError.locked(path: directory.path, seconds: timeout)
            }
            if !saidWaiting && error == EWOULDBLOCK {
                saidWaiting = true
                waiting()
            }
            do {
                try await sleeper.sleep(seconds: 0.2)
            } catch {
                close(descriptor)
                throw error
            }
        }
        return OutputLock(descriptor: descriptor)
    }

    /// The lock if no other run holds it, at once; `nil` if one does.
    package static func acquireIfFree(in directory: URL) throws(OutputError) -> OutputLock? {
        let descriptor = try openLockFile(in: directory)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return OutputLock(descriptor: descriptor)
    }

    /// Removes `directory` if it holds nothing but the lock file: a run that made the folder and
    /// then failed (a typo in `--currency`, a missing feed file) leaves no empty folder behind.
    package static func removeIfOnlyLock(_ directory: URL) {
        let manager = FileManager.default
        guard (try? manager.contentsOfDirectory(atPath: directory.path)) == [fileName] else { return }
        try? manager.removeItem(at: directory.appendingPathComponent(fileName))
        rmdir(directory.path)
    }

    /// Never through a symbolic link: one planted there would make the lock file, created with
    /// the run's rights, appear wherever it points.
    private static func openLockFile(in directory: URL) throws(OutputError) -> Int32 {
        let path = directory.appendingPathComponent(fileName).path
        // 0666 less the umask, as the reports: a group sharing the folder (umask 002) shares it.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o666)
        guard descriptor >= 0 else {
            if errno == ELOOP {
                throw .notWritable(path: directory.path, reason: "\(fileName) is a symbolic link, which is never followed; remove it")
            }
            // Named: the folder may be writable and the lock file, another user's, not.
            let reason = String(cString: strerror(errno))
            throw .notWritable(path: directory.path, reason: errno == EACCES ? "\(fileName): \(reason)" : reason)
        }
        return descriptor
    }

    deinit {
        RunInterruption.shared.released(lock: descriptor)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
