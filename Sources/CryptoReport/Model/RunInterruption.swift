import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a SIGTERM or SIGINT must wait for and undo before the process ends.
///
/// Every stretch of a run that creates temporary files and renames or removes them again (a
/// report commit and its recovery, a cache or request-log write, the history transaction) runs
/// `uninterrupted`; a signal handler calls `interrupt()`, which waits for such a stretch to end
/// and never lets another begin. So when the process ends, no temporary file of this run is left
/// and the output folder holds whole reports, the previous set or this run's. The output locks
/// this run holds are released.
package final class RunInterruption: @unchecked Sendable {
    package static let shared = RunInterruption()

    /// Held through every uninterrupted stretch, and for good by `interrupt()`.
    private let stretch = NSRecursiveLock()
    private let registry = NSLock()
    private var locks: Set<Int32> = []
    /// Nesting of the stretch held now; changed only by the thread holding `stretch`.
    private var depth = 0
    private var pendingCheck: (@Sendable () -> Void)?
    private var interrupting = false

    init() {}

    /// Called after every outermost stretch: the command's signal handling ends the process there
    /// if a signal came in during it, before the run carries on to anything else (and perhaps to
    /// a normal exit before its handler thread is scheduled).
    package func checkAfterEachStretch(_ check: @escaping @Sendable () -> Void) {
        registry.withLock { pendingCheck = check }
    }

    /// Runs `body` to its end before a signal can stop the process.
    package func uninterrupted<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        stretch.lock()
        depth += 1
        defer {
            depth -= 1
            let outermost = depth == 0
            stretch.unlock()
            if outermost {
                // A signal being handled: its thread ends the process; this one must not go on
                // (to a normal exit, say) meanwhile.
                if registry.withLock({ interrupting }) { while true { sleep(60) } }
                if let check = registry.withLock({ pendingCheck }) { check() }
            }
        }
        return try body()
    }

    func holding(lock descriptor: Int32) {
        registry.withLock { _ = locks.insert(descriptor) }
    }

    func released(lock descriptor: Int32) {
        registry.withLock { _ = locks.remove(descriptor) }
    }

    /// Waits for a stretch in progress, keeps any other from starting, and releases the locks.
    /// The caller then ends the process.
    package func interrupt() {
        registry.withLock { interrupting = true }
        stretch.lock()
        let held = registry.withLock { locks }
        for descriptor in held { flock(descriptor, LOCK_UN) }
    }
}
