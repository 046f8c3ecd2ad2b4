/// A report's UTF-8 bytes as they are made, in one reused buffer, handed to its file a piece at a
/// time (or kept whole, for a caller that wants the text).
///
/// The writers append straight into it instead of building a `String` per cell and per line:
/// no format's whole text is held as a `String`, and no `String` append checks and grows its
/// storage separately.
struct ReportBytes: ~Copyable {
    /// `ByteBuffer`: why not an array, there.
    var bytes: ByteBuffer
    /// Where full pieces go; nil while the report is kept whole.
    private let sink: ((UnsafeRawBufferPointer) -> Void)?
    private let pieceSize: Int

    /// The whole report in `bytes`.
    init(reserving capacity: Int) {
        sink = nil
        pieceSize = .max
        bytes = ByteBuffer(capacity: capacity)
    }

    /// Pieces of about `pieceSize` bytes handed to `sink`; call `finish()` at the end.
    init(pieceSize: Int = 1 << 18, sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.sink = sink
        self.pieceSize = pieceSize
        bytes = ByteBuffer(capacity: pieceSize + 65_536)
    }

    /// Hands the bytes made so far on when they fill a piece (called between markets).
    @inline(__always)
    mutating func flushIfFull() {
        if bytes.count >= pieceSize { flush() }
    }

    /// Hands on what is left.
    mutating func finish() { flush() }

    private mutating func flush() {
        guard let sink, !bytes.isEmpty else { return }
        bytes.withUnsafeBytes(sink)
        bytes.removeAll()
    }

    /// The text kept whole.
    var text: String { bytes.text }

    /// A literal's bytes, copied from where the compiler put them: nearly every append of the
    /// page is one, and `String`'s UTF-8 view would append them a byte at a time.
    @inline(__always)
    static func += (output: inout ReportBytes, text: StaticString) {
        output.bytes += text
    }

    /// A `String`'s bytes (a literal goes to the `StaticString` append, which takes it as is).
    @inline(__always)
    mutating func append(_ text: String) {
        bytes.append(text)
    }

    @inline(__always)
    static func += (output: inout ReportBytes, bytes: [UInt8]) {
        output.bytes.append(bytes)
    }
}

/// Runs `write` over a `ReportBytes` that hands its pieces to `sink` (a file being staged).
func streamReport(to sink: (UnsafeRawBufferPointer) -> Void, _ write: (inout ReportBytes) throws -> Void) rethrows {
    try withoutActuallyEscaping(sink) { sink in
        var output = ReportBytes(sink: sink)
        try write(&output)
        output.finish()
    }
}
