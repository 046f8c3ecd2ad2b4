import Foundation

/// The threads `ParallelChunks` makes its parts on: one fewer than the machine's cores, as the
/// thread that asks works too, made as the command starts (`startEarly`) or else on first use,
/// and kept for the run.
///
/// Written by hand rather than left to Dispatch's `concurrentPerform`: Dispatch gives an apply
/// the threads free when it starts, and on Linux a thread that comes free later (the other staging
/// lane done) did not join an apply already running — a 100,000-market page was written on one
/// core for most of a second while the other idled. Here every thread that is free takes the next
/// part of whatever work is waiting, at any time, and a thread waiting for its own work's last
/// parts makes parts of work begun after it (what the lanes nested inside it started).
package final class WorkerPool: @unchecked Sendable {
    /// Work that threads take parts of. All of a job's state is read and changed under the pool's
    /// lock, except while a part runs (`run`), which touches only what that part owns.
    class Job {
        /// The next part to run, taken; nil when none can start now. `byCaller`: the thread that
        /// gave the pool this job.
        func claim(byCaller: Bool) -> Int? { nil }
        /// Runs `part`, outside the lock.
        func run(_ part: Int) {}
        /// `part` has run (under the lock).
        func finish(_ part: Int) {}
        /// Every part has run (under the lock).
        var isDone: Bool { true }
    }

    static let shared = WorkerPool(threads: max(1, ProcessInfo.processInfo.activeProcessorCount - 1))

    private let condition = NSCondition()
    /// Jobs being worked on, newest last.
    private var jobs: [Job] = []
    private let threads: Int
    private var started = false
    private var made = 0

    init(threads: Int) {
        self.threads = threads
    }

    /// Makes the shared pool's threads now, before there is work for them: for a command, as it
    /// starts. A thread made when the first work came was put by the scheduler on the core of
    /// the thread that made it, which went on with its own part, and first ran at the next tick,
    /// 3 to 4 ms later (measured here): `history` of ten years read its second half that much
    /// later when the machine had been idle. A thread waiting in the pool is woken in microseconds.
    package static func startEarly() {
        shared.startThreads()
    }

    /// Makes the threads, if not made yet.
    func startThreads() {
        condition.withLock {
            if !started { start() }
        }
    }

    /// How many threads the pool has made (for tests).
    var threadsMade: Int {
        condition.withLock { made }
    }

    /// Runs `job` to its end, this thread taking parts too; returns once every part has run.
    func perform(_ job: Job) {
        condition.lock()
        if !started { start() }
        jobs.append(job)
        condition.broadcast()
        while !job.isDone {
            if let part = job.claim(byCaller: true) {
                run(job, part)
            } else if let (other, part) = claimAny(newerThan: job) {
                run(other, part)
            } else {
                condition.wait()
            }
        }
        if let index = jobs.lastIndex(where: { $0 === job }) { jobs.remove(at: index) }
        condition.unlock()
    }

    /// Makes parts of the pool's work until `isDone` (checked under the pool's lock, so it must
    /// not take it) holds; whoever makes it hold calls `wakeHelpers`. A thread that would
    /// otherwise wait for a value another is making works on that value's chunks instead.
    func help(until isDone: () -> Bool) {
        condition.lock()
        while !isDone() {
            if let (job, part) = claimAny(newerThan: nil) {
                run(job, part)
            } else {
                condition.wait()
            }
        }
        condition.unlock()
    }

    /// Wakes the threads in `help` to check what they wait for.
    func wakeHelpers() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `part` of `job` outside the lock (held on entry and on return), and says so.
    private func run(_ job: Job, _ part: Int) {
        condition.unlock()
        job.run(part)
        condition.lock()
        job.finish(part)
        condition.broadcast()
    }

    /// A part of the newest job that has one ready, of those after `job` (all, for nil).
    private func claimAny(newerThan job: Job?) -> (Job, Int)? {
        var index = jobs.count - 1
        while index >= 0 {
            let each = jobs[index]
            if each === job { return nil }
            if let part = each.claim(byCaller: false) { return (each, part) }
            index -= 1
        }
        return nil
    }

    private func start() {
        started = true
        for _ in 0..<threads {
            let thread = Thread { [self] in work() }
            // As much stack as the main thread's: the parts run the same code it does.
            thread.stackSize = 8 << 20
            thread.start()
            made += 1
        }
    }

    private func work() {
        condition.lock()
        while true {
            if let (job, part) = claimAny(newerThan: nil) {
                run(job, part)
            } else {
                condition.wait()
            }
        }
    }
}
