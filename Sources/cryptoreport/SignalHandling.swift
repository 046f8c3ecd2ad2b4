import CryptoReport
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGTERM (cron's or systemd's stop) and SIGINT (Ctrl-C) end a run cleanly: a commit, cache write
/// or history transaction in progress runs to its end, this run's temporary files are gone, the
/// output lock is released, and the run exits 143 or 130 with one line on standard error.
enum SignalHandling {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    static func install() {
        for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            // Delivered to a dispatch source instead of interrupting whatever thread it lands on.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue(label: "cryptoreport.signal"))
            source.setEventHandler {
                RunInterruption.shared.interrupt()
                let line = "cryptoreport: stopped by \(name); no temporary file is left, and the output folder holds whole reports.\n"
                _ = line.withCString { write(2, $0, strlen($0)) }
                // No atexit handlers: another thread may be anywhere; everything durable is done.
                _exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }
}
