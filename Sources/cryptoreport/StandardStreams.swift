import CryptoReport
import Foundation

/// Standard output and standard error, written with POSIX `write`. `FileHandle.write(_:)`, which
/// does not throw, ends the process with a crash and a stack trace when a write fails: an
/// export to a full disk (`history … > /dev/full`), or any error message with standard error
/// closed or full, ended as SIGILL instead of the documented exit status.
enum StandardStreams {
    /// Standard input, output and error opened on `/dev/null` where the caller closed them, before
    /// anything else opens a file: the next file opened takes the lowest free descriptor, and
    /// with 1 and 2 closed the signals' self-pipe took them, so that every message went into the
    /// pipe and its first byte was read as a signal (`stopped by SIGTERM`, exit 227).
    static func holdOpen() {
        for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) == -1 {
            let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            // The lower ones are open by now, so this is `descriptor` itself.
            if opened >= 0 && opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }

    /// What a command prints as its result (`history`'s export, the paths of the reports written).
    static func writeOutput(_ bytes: [UInt8]) throws(OutputError) {
        let error = bytes.withUnsafeBytes { StandardOutput.writeAll(STDOUT_FILENO, $0) }
        if error != 0 { throw .writeFailed(path: "standard output", reason: String(cString: strerror(error))) }
    }

    static func writeOutput(_ text: String) throws(OutputError) {
        try StandardOutput().print(text)
    }

    /// A message for the user. One that cannot be written is left unsaid: there is nowhere else
    /// to say it, and the exit status still tells.
    static func writeError(_ text: String) {
        var text = text
        _ = text.withUTF8 { StandardOutput.writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }
}
