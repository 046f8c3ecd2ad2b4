import Foundation

/// The body read in parts on every core, giving exactly the rows (or the `nil`) of reading it
/// from its start.
///
/// Written by hand because reading 100,000 tickers' rows was the one part of parsing on one core
/// while the other idled (a twentieth of a report). Where a part begins is guessed: the first
/// `{` after a `}`, `,` and `{` with only whitespace between them, past the part's share of the
/// bytes. Such a guess may land inside a string (`"a},{b"`); so each part is checked before it
/// is kept. The part before it, read from a place known to begin a row, must end exactly where
/// the guess begins (after `,` and whitespace, at the `{`), which is where the plain reader would
/// begin its next row with nothing carried over (`object()` starts afresh). A part whose guess
/// that part does not end at is dropped, and its bytes read on from where the part before really
/// ended, as the plain reader would. A part that fails counts only once it is known to be real.
extension TickerScanner {
    /// Bytes per part: about 1,000 tickers, enough to dwarf handing a part to a thread, few enough
    /// that the parts even out between the cores.
    static let defaultPartBytes = 256 << 10

    /// How a part ended.
    enum PartEnd: Equatable {
        /// At the `{` of the next part's first row (its offset).
        case next(Int)
        /// Past the closing `]` and the whitespace after it, at the body's end.
        case arrayEnd
        /// Where the plain reader would give the body to JSONDecoder.
        case unread
    }

    /// The rows of the body in consecutive parts, handed to `body` together; `body`'s result, or
    /// `nil` when JSONDecoder must read the body. The rows point into the body: valid only during
    /// the call. `partBytes` at least the body's size reads it in one part, on this thread.
    static func withRowParts<T>(_ data: Data, partBytes: Int = defaultPartBytes, _ body: ([[Row]]) -> T) -> T? {
        data.withUnsafeBytes { raw -> T? in
            // Offsets are kept in 32 bits; no ticker body comes near 4 GiB.
            guard raw.count < 1 << 32 else { return nil }
            let starts = guessedStarts(raw, partBytes: max(1, partBytes))
            let read = ParallelChunks.map(starts.count + 1, chunk: 1) { parts -> (rows: [Row], end: PartEnd) in
                let part = parts.lowerBound
                var cursor = Cursor(bytes: raw)
                var rows: [Row] = []
                rows.reserveCapacity(min(raw.count, max(1, partBytes)) / 200)
                let limit = part < starts.count ? starts[part] : Int.max
                let end: PartEnd
                if part == 0 {
                    end = cursor.firstObjects(until: limit, into: &rows)
                } else {
                    cursor.position = starts[part - 1]
                    end = cursor.objects(until: limit, into: &rows)
                }
                return (rows, end)
            }
            guard let parts = joined(read, starts: starts, raw: raw) else { return nil }
            return body(parts)
        }
    }

    /// The parts the plain reader's rows are, in order: each kept part ends where the next kept
    /// one begins, the bytes of a dropped one read here from where the last kept one ended.
    private static func joined(_ read: [(rows: [Row], end: PartEnd)], starts: [Int], raw: UnsafeRawBufferPointer) -> [[Row]]? {
        guard let first = read.first else { return nil }
        var parts = [first.rows]
        var end = first.end
        // `read[next]` is the part that begins at `starts[next - 1]`.
        var next = 1
        while case let .next(position) = end {
            // Guesses the real reading passed over are inside rows: dropped.
            while next < read.count, starts[next - 1] < position { next += 1 }
            if next < read.count, starts[next - 1] == position {
                parts.append(read[next].rows)
                end = read[next].end
                next += 1
            } else {
                // Read on from the real end, up to the next guess still ahead.
                var cursor = Cursor(bytes: raw)
                cursor.position = position
                var rows: [Row] = []
                end = cursor.objects(until: next < read.count ? starts[next - 1] : Int.max, into: &rows)
                parts.append(rows)
            }
        }
        return end == .arrayEnd ? parts : nil
    }

    /// Where parts after the first are guessed to begin, increasing; none for a body of one part.
    static func guessedStarts(_ raw: UnsafeRawBufferPointer, partBytes: Int) -> [Int] {
        var starts: [Int] = []
        var from = partBytes
        while from < raw.count, let start = guessedStart(raw, from: from) {
            starts.append(start)
            from = max(start + 1, from + partBytes)
        }
        return starts
    }

    /// The first `{` at or after `from` that follows `}`, whitespace, `,`, whitespace.
    static func guessedStart(_ raw: UnsafeRawBufferPointer, from: Int) -> Int? {
        func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        var index = max(from, 1)
        while index < raw.count {
            if raw[index] == UInt8(ascii: "{") {
                var back = index - 1
                while back > 0, isWhitespace(raw[back]) { back -= 1 }
                if raw[back] == UInt8(ascii: ",") {
                    back -= 1
                    while back > 0, isWhitespace(raw[back]) { back -= 1 }
                    if back >= 0, raw[back] == UInt8(ascii: "}") { return index }
                }
            }
            index += 1
        }
        return nil
    }
}

extension TickerScanner.Cursor {
    /// From the body's start: `[`, then rows as `objects` reads them.
    mutating func firstObjects(until limit: Int, into rows: inout [TickerScanner.Row]) -> TickerScanner.PartEnd {
        guard expect(UInt8(ascii: "[")) else { return .unread }
        skipWhitespace()
        guard current == UInt8(ascii: "]") else { return objects(until: limit, into: &rows) }
        position += 1
        skipWhitespace()
        return position == bytes.count ? .arrayEnd : .unread
    }

    /// Rows from one that begins here (perhaps after whitespace), as `array` reads them, until the
    /// next row would begin at or past `limit` (the offset of its `{`), or the array ends.
    mutating func objects(until limit: Int, into rows: inout [TickerScanner.Row]) -> TickerScanner.PartEnd {
        while true {
            skipWhitespace()
            // An element that is not an object leaves the body to JSONDecoder, as `array` does.
            guard let row = object() else { return .unread }
            rows.append(row)
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                position += 1
                skipWhitespace()
                if position >= limit { return .next(position) }
                continue
            }
            guard current == UInt8(ascii: "]") else { return .unread }
            position += 1
            skipWhitespace()
            return position == bytes.count ? .arrayEnd : .unread
        }
    }
}
