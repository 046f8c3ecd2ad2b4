import Foundation

/// One run's last prices in one blob (the `run_lasts` table, schema v6): what a report's trends
/// read of each of the month's runs. Read from the market rows, a month was 13,500 rows each
/// stepped by SQLite, the longest part of a daily run's way through its history; packed, it is
/// 30 blobs. The rows stay the record (`history` and every other reader go by them); a pack is a
/// copy of their last prices as `StoredNumber.readLastFast` reads them, made from the stored rows
/// as the run is recorded, and kept for the newest runs only (`keptFor`).
///
/// Written by hand: no mirrored library packs exact decimals, and the pack must give back the very
/// `FastDecimal`s the rows give (`HistoryStore.forEachLastPrices` takes either).
///
/// Layout: a version byte (`version`; a pack of another is read from the rows, so that one made
/// by another version of the tool, which might read a stored figure otherwise, is never taken);
/// the count of the run's rows whose last price could not be read and the count of prices (so
/// that a cut pack is not read as a shorter one), as unsigned LEB128 varints; then for each price,
/// in name order, the name id's step from the one before (the id itself for the first) as a
/// varint, a flags byte (1 negative, 2 compact, 4 a high word follows, 8 the low word takes four
/// bytes, not eight), the exponent's byte, the low word and the high word when flagged, both
/// little-endian. Fixed-width words, not varints: a product's 28 digits were fifteen varint bytes
/// a price, read a byte at a time, and most of reading a pack.
enum PackedLasts {
    /// How far back from the newest run packs are kept: the trends read the 31 days before a
    /// report, which is usually a day after the newest run. Older runs are read from their rows.
    static let keptFor: TimeInterval = 35 * 86400

    /// Raised whenever what a pack holds changes, or how `StoredNumber.readLastFast` reads a figure.
    static let version: UInt8 = 1

    static func pack(_ prices: [HistoryStore.LastPrice], unreadable: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(prices.count * 8 + 4)
        bytes.append(version)
        appendVarint(UInt64(unreadable), to: &bytes)
        appendVarint(UInt64(prices.count), to: &bytes)
        var previous: Int64 = 0
        for price in prices {
            appendVarint(UInt64(bitPattern: price.nameID &- previous), to: &bytes)
            previous = price.nameID
            let value = price.last
            let short = value.low <= UInt64(UInt32.max)
            bytes.append((value.isNegative ? 1 : 0) | (value.isCompact ? 2 : 0) | (value.high != 0 ? 4 : 0) | (short ? 8 : 0))
            bytes.append(UInt8(bitPattern: Int8(truncatingIfNeeded: value.exponent)))
            withUnsafeBytes(of: value.low.littleEndian) { bytes += $0.prefix(short ? 4 : 8) }
            if value.high != 0 { withUnsafeBytes(of: value.high.littleEndian) { bytes += $0 } }
        }
        return bytes
    }

    /// The pack's prices appended to `prices`, and its count of unreadable rows; `nil` (and
    /// `prices` as it was) for bytes that are not a pack: a damaged one is read from the rows.
    static func unpack(_ bytes: UnsafeRawBufferPointer, into prices: inout [HistoryStore.LastPrice]) -> Int? {
        let start = prices.count
        var reader = Reader(bytes: bytes)
        // Each price takes at least seven bytes: a count past that is not a pack's.
        guard reader.byte() == version, let unreadable = reader.varint(), unreadable <= UInt64(Int32.max), let count = reader.varint(),
            count <= UInt64(bytes.count / 7)
        else { return nil }
        var previous: Int64 = 0
        prices.reserveCapacity(start + Int(count))
        for _ in 0..<Int(count) {
            // Names go up, each id once: a step of zero or less is not a pack's.
            guard let step = reader.varint(), step > 0, step <= UInt64(Int64.max), let flags = reader.byte(), flags < 16,
                let exponent = reader.byte(),
                let low = reader.word(flags & 8 != 0 ? 4 : 8)
            else {
                prices.removeSubrange(start...)
                return nil
            }
            var high: UInt64 = 0
            if flags & 4 != 0 {
                guard let word = reader.word(8), word != 0 else {
                    prices.removeSubrange(start...)
                    return nil
                }
                high = word
            }
            previous &+= Int64(bitPattern: step)
            let value = FastDecimal(
                high: high, low: low, exponent: Int(Int8(bitPattern: exponent)), isNegative: flags & 1 != 0, isCompact: flags & 2 != 0)
            prices.append((previous, value))
        }
        guard reader.isAtEnd else {
            prices.removeSubrange(start...)
            return nil
        }
        return Int(unreadable)
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset >= bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        /// A little-endian word of `width` bytes (4 or 8).
        mutating func word(_ width: Int) -> UInt64? {
            guard bytes.count - offset >= width else { return nil }
            defer { offset += width }
            if width == 4 { return UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }

        mutating func varint() -> UInt64? {
            // One byte, as nearly every name id's step is.
            if offset < bytes.count, bytes[offset] < 0x80 {
                defer { offset += 1 }
                return UInt64(bytes[offset])
            }
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                // Ten bytes hold 64 bits; an eleventh, or bits past 64, are not a pack's.
                guard shift < 64, shift < 63 || byte <= 1 else { return nil }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            return nil
        }
    }
}
