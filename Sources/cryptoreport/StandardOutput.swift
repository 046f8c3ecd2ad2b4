import CryptoReport
import Foundation

/// What a command prints as its result (`history`'s export, `--output -`'s report), written so
/// that a failed write is an error the user reads: `FileHandle.write(_:)`, which does not throw,
/// ended the process with a crash and a stack trace when the write failed
/// (`cryptoreport history … > /dev/full`).
enum StandardOutput {
    static func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        guard var next = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let written = Foundation.write(STDOUT_FILENO, next, left)
            if written < 0 {
                if errno == EINTR { continue }
                throw .writeFailed(path: "standard output", reason: String(cString: strerror(errno)))
            }
            next += written
            left -= written
        }
    }

    static func write(_ bytes: [UInt8]) throws(OutputError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(OutputError) in try write(buffer) } }.get()
    }

    static func write(_ text: String) throws(OutputError) {
        var text = text
        try text.withUTF8 { buffer in Result { () throws(OutputError) in try write(UnsafeRawBufferPointer(buffer)) } }.get()
    }
}
