import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a report sent to standard output goes (`--output -`): the process's, or a test's.
public protocol ReportPrinting: Sendable {
    func print(_ text: String) throws(OutputError)
}

/// The process's standard output, written with POSIX `write`: `FileHandle.write(_:)` cannot
/// throw, and ended the process with SIGILL on a full disk instead of exit 73.
public struct StandardOutput: ReportPrinting {
    public init() {}

    public func print(_ text: String) throws(OutputError) {
        var text = text
        let error = text.withUTF8 { Self.writeAll(STDOUT_FILENO, UnsafeRawBufferPointer($0)) }
        if error != 0 { throw .writeFailed(path: "standard output", reason: String(cString: strerror(error))) }
    }

    /// Writes all of `bytes`, retrying after a signal: 0, or the `errno` of the write that failed.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard var next = bytes.baseAddress else { return 0 }
        var left = bytes.count
        while left > 0 {
            let written = write(descriptor, next, left)
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
