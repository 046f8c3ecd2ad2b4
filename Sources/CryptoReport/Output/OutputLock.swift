import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on an output folder, so that two runs started at once do not interleave.
///
/// `flock` on `.cryptoreport.lock` in the folder: the kernel drops it when the process ends,
/// however it ends, so a run killed with `kill -9` never leaves a stale lock behind.
public final class OutputLock: @unchecked Sendable {
    public static let fileName = ".cryptoreport.lock"

    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Waits up to `timeout` seconds for the lock.
    public static func acquire(in directory: URL, timeout: TimeInterval, sleeper: any Sleeper = TaskSleeper()) async throws
        -> OutputLock
    {
        let path = directory.appendingPathComponent(fileName).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw OutputError.notWritable(path: directory.path, reason: String(cString: strerror(errno)))
        }
        let started = Date()
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw OutputError.notWritable(path: path, reason: reason)
            }
            guard Date().timeIntervalSince(started) < timeout else {
                close(descriptor)
                throw OutputError.locked(path: directory.path, seconds: timeout)
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

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
