/// Where the report writers append bytes: an array, or a `ByteBuffer` (a staged CSV or JSON
/// report's bytes).
///
/// The figures' writers (`DecimalParts.appendPlain`, `ReportDates.appendISO8601`, the CSV and JSON
/// cells) are generic over it, so that a report streamed to its file appends with a
/// capacity check and a copy rather than `[UInt8]`'s call and uniqueness check per append, and
/// every other caller keeps its array.
package protocol ByteSink: ~Copyable {
    mutating func append(_ byte: UInt8)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension ByteSink where Self: ~Copyable {
    @inline(__always)
    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    @inline(__always)
    package mutating func append(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// A `String`'s UTF-8, read in place: native strings (every one the report makes) and small
    /// ones need no copy.
    @inline(__always)
    package mutating func append(utf8 text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            var text = text
            text.withUTF8 { append($0) }
        }
    }

    /// A literal's bytes, copied from where the compiler put them.
    @inline(__always)
    package static func += (sink: inout Self, text: StaticString) {
        text.withUTF8Buffer { sink.append($0) }
    }
}

extension Array: ByteSink where Element == UInt8 {
    @inline(__always)
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: bytes)
    }
}
