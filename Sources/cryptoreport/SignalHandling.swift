import CryptoReport
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGTERM (cron's or systemd's stop), SIGINT (Ctrl-C) and SIGHUP (a closed terminal or a dropped
/// ssh session) end a run cleanly: a commit, cache write or history transaction in progress runs
/// to its end, this run's temporary files are gone, the output lock is released, and the run
/// exits 143, 130 or 129 with one line on standard error.
///
/// Written by hand with the self-pipe trick rather than a `DispatchSource`: on Linux, libdispatch
/// receives signals through a signalfd, and one delivered to a thread that had not blocked it
/// (any thread the runtime started before us) is re-raised on that thread and lost.
enum SignalHandling {
    /// Written by the handler (one byte, the signal number), read by the watcher thread.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    /// The signal received, set by the handler too (a lock-free store is async-signal-safe): the
    /// watcher may have taken the pipe's byte but not yet stopped the run when a stretch ends or
    /// the run finishes, and the signal must not be lost then.
    private static let received = Atomic<Int32>(0)

    /// A report's settings name standard output (`--output -`, `output = "-"` in the file or
    /// `CRYPTOREPORT_OUTPUT=-`): the stop line then speaks of no folder. Atomic: the watcher
    /// thread may read it at any moment.
    private static let toStandardOutput = Atomic<Bool>(false)

    static func reportsToStandardOutput() {
        toStandardOutput.store(true, ordering: .relaxed)
    }

    /// What the stop line says is whole after `no temporary file is left`: set once, by
    /// `install`, before any signal can be read.
    nonisolated(unsafe) private static var whole = ""

    /// - Parameter subcommand: the first argument; `backfill` writes days to the history, not
    ///   reports, and `history` writes nothing but its export (a report to standard output says
    ///   so once its settings are known: `reportsToStandardOutput`).
    static func install(subcommand: String? = nil) {
        switch subcommand {
        case "backfill": whole = ", and the history holds whole days"
        case "history": whole = ""
        default: whole = ", and the output folder holds whole reports"
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        writeEnd = ends[1]
        for number in [SIGTERM, SIGINT, SIGHUP] {
            var action = sigaction()
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = { number in SignalHandling.handle(number) }
            #else
                action.__sigaction_u.__sa_handler = { number in SignalHandling.handle(number) }
            #endif
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
        let readEnd = ends[0]
        let watcher = Thread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) != 1 {}
            stop(Int32(byte))
        }
        watcher.start()
        // A signal that came during a stretch ends the run as soon as the stretch does.
        RunInterruption.shared.checkAfterEachStretch {
            var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 0) == 1 { stop(SIGTERM, peek: readEnd) }
            checkReceived()
        }
    }

    /// The handler: async-signal-safe, a lock-free store and a `write(2)`.
    static func handle(_ number: Int32) {
        received.store(number, ordering: .sequentiallyConsistent)
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(writeEnd, &byte, 1)
    }

    /// The signal received so far, 0 for none, whether or not its watcher has got to it.
    static var pending: Int32 { received.load(ordering: .sequentiallyConsistent) }

    /// Ends the process as a signal does if one was received (its watcher may not have got to it
    /// yet): after each uninterrupted stretch, and before the run's own exit.
    static func checkReceived() {
        let number = pending
        if number != 0 { stop(number) }
    }

    /// Waits for a stretch under way, releases the locks, says so and ends the process. Reached
    /// from the watcher thread or after a stretch, whichever is first; the other waits for ever.
    private static func stop(_ number: Int32, peek readEnd: Int32? = nil) -> Never {
        var number = number
        if let readEnd {
            var byte: UInt8 = 0
            if read(readEnd, &byte, 1) == 1 { number = Int32(byte) }
        }
        RunInterruption.shared.interrupt()
        let name = number == SIGINT ? "SIGINT" : number == SIGHUP ? "SIGHUP" : "SIGTERM"
        let said = toStandardOutput.load(ordering: .relaxed) ? "" : whole
        let line = "cryptoreport: stopped by \(name); no temporary file is left\(said).\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        // No atexit handlers: another thread may be anywhere; everything durable is done.
        _exit(128 + number)
    }
}
