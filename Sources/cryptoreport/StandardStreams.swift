import CryptoReport
import Foundation

/// Standard output and standard error, written with POSIX `write`. `FileHandle.write(_:)`, which
/// does not throw, ends the process with a crash and a stack trace when a write fails: an
/// export to a full disk (`history … > /dev/full`), or any error message with standard error
/// closed or full, ended as SIGILL instead of the documented exit status.
enum StandardStreams {
    /// What a command prints as its result (`history`'s export, `--output -`'s report).
    static func writeOutput(_ bytes: [UInt8]) throws(OutputError) {
        let error = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0) }
        if error != 0 { throw .writeFailed(path: "standard output", reason: String(cString: strerror(error))) }
    }

    static func writeOutput(_ text: String) throws(OutputError) {
        var text = text
        let error = text.withUTF8 { write(STDOUT_FILENO, UnsafeRawBufferPointer($0)) }
        if error != 0 { throw .writeFailed(path: "standard output", reason: String(cString: strerror(error))) }
    }

    /// A message for the user. One that cannot be written is left unsaid: there is nowhere else
    /// to say it, and the exit status still tells.
    static func writeError(_ text: String) {
        var text = text
        _ = text.withUTF8 { write(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }

    /// Writes all of `bytes`, retrying after a signal: 0, or the `errno` of the write that failed.
    private static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard var next = bytes.baseAddress else { return 0 }
        var left = bytes.count
        while left > 0 {
            let written = Foundation.write(descriptor, next, left)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            next += written
            left -= written
        }
        return 0
    }
}
