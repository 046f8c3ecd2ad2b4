import Foundation

/// Reads the common shape of the ticker body straight from its bytes: an array of flat objects
/// whose values are ASCII strings without escapes, integers or `null`.
///
/// Written by hand because JSONDecoder first indexes the whole body and then decodes each field
/// through `Decodable`, trying a string, then a number, by throwing, at a cost in memory and time
/// for every field. Anything else — an escape, a fraction or exponent, a nested value, `true`, a
/// key given twice, a byte outside ASCII, a malformed body — returns `nil`, and `TickerDecoder`
/// reads the body with JSONDecoder instead, so every error and every odd value keeps its meaning.
/// A test reads every fixture both ways.
enum TickerScanner {
    /// The rows as JSONDecoder's values, to compare the two readers.
    static func rows(_ data: Data) -> [RawTickerRow]? {
        var rows: [RawTickerRow] = []
        guard forEachRow(data, { row in rows.append(RawTickerRow(fields: row.map(\.values))) }) != nil else { return nil }
        return rows
    }

    /// Hands each row to `body` as it is read, so that a large body is never held as rows all at
    /// once; the number of rows, or `nil` (after some rows perhaps) when JSONDecoder must read it.
    /// A row (`nil`: not an object) is valid only during the call: it points into the body.
    static func forEachRow(_ data: Data, _ body: (Row?) -> Void) -> Int? {
        data.withUnsafeBytes { raw -> Int? in
            // Offsets are kept in 32 bits; no ticker body comes near 4 GiB.
            guard raw.count < 1 << 32 else { return nil }
            var scanner = Cursor(bytes: raw)
            return scanner.array(body)
        }
    }

    /// One object's known fields as where they are in the body: kind, offset and length packed in
    /// one integer each, not a string and a value per field in a dictionary per ticker: the
    /// strings are made only for the fields the decoder keeps as text (the identifiers), and the
    /// prices parsed from their bytes.
    struct Row: TickerFields {
        let bytes: UnsafeRawBufferPointer
        /// Per key: 0 absent, else kind (1 string, 2 integer, 3 null) | length << 8 | offset << 32.
        private var slots: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        static let string: UInt64 = 1
        static let integer: UInt64 = 2
        static let null: UInt64 = 3

        func slot(_ index: Int) -> UInt64 {
            withUnsafeBytes(of: slots) { $0.load(fromByteOffset: 8 * index, as: UInt64.self) }
        }

        mutating func set(_ index: Int, kind: UInt64, start: Int, end: Int) {
            let packed = kind | UInt64(end - start) << 8 | UInt64(start) << 32
            withUnsafeMutableBytes(of: &slots) { $0.storeBytes(of: packed, toByteOffset: 8 * index, as: UInt64.self) }
        }

        func kind(_ key: RawTickerRow.Key) -> UInt64 { slot(key.rawValue) & 0xFF }

        /// The value's bytes (inside the quotes for a string).
        func value(_ key: RawTickerRow.Key) -> UnsafeBufferPointer<UInt8> {
            let packed = slot(key.rawValue)
            let start = Int(packed >> 32)
            let length = Int((packed >> 8) & 0xFF_FFFF)
            return UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)]).bindMemory(to: UInt8.self)
        }

        func has(_ key: RawTickerRow.Key) -> Bool { kind(key) != 0 }
        func isNull(_ key: RawTickerRow.Key) -> Bool { kind(key) == Self.null }

        func text(_ key: RawTickerRow.Key) -> String? {
            kind(key) == Self.string ? String(decoding: value(key), as: UTF8.self) : nil
        }

        /// As `JSONScalar.decimal` reads the value JSONDecoder would make of it.
        func decimal(_ key: RawTickerRow.Key) -> Decimal? {
            switch kind(key) {
            case Self.string: return DecimalText.parse(bytes: value(key))
            case Self.integer:
                guard let value = DecimalParts.parse(value(key))?.decimal else { return nil }
                return DecimalText.inRange(value) ? value : nil
            default: return nil
            }
        }

        func scalar(_ key: RawTickerRow.Key) -> JSONScalar? {
            switch kind(key) {
            case Self.string: return .string(String(decoding: value(key), as: UTF8.self))
            case Self.integer: return DecimalParts.parse(value(key))?.decimal.map(JSONScalar.number)
            case Self.null: return .null
            default: return nil
            }
        }

        /// As JSONDecoder's values.
        var values: RawTickerRow.Fields {
            var fields = RawTickerRow.Fields()
            for index in RawTickerRow.keys.indices {
                if let key = RawTickerRow.Key(rawValue: index) { fields[index] = scalar(key) }
            }
            return fields
        }
    }

    /// The keys' bytes, to match a key without making a string of it.
    static let keyBytes: [[UInt8]] = RawTickerRow.keys.map { Array($0.utf8) }

    struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var position = 0
        /// The keys, read once per body rather than through the static for every key.
        private let keys = TickerScanner.keyBytes
        /// The key tried first: the one after the last matched. The feed sends every ticker's
        /// keys in the same order, so nearly every key matches at the first comparison instead
        /// of after a search through all eleven.
        private var expectedKey = 0

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
        }

        mutating func expect(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard current == byte else { return false }
            position += 1
            return true
        }

        mutating func array(_ body: (Row?) -> Void) -> Int? {
            guard expect(UInt8(ascii: "[")) else { return nil }
            var count = 0
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                position += 1
            } else {
                while true {
                    skipWhitespace()
                    // An element that is not an object leaves the body to JSONDecoder, which
                    // judges that row.
                    guard let fields = object() else { return nil }
                    body(fields)
                    count += 1
                    skipWhitespace()
                    if current == UInt8(ascii: ",") {
                        position += 1
                        continue
                    }
                    guard current == UInt8(ascii: "]") else { return nil }
                    position += 1
                    break
                }
            }
            skipWhitespace()
            return position == bytes.count ? count : nil
        }

        mutating func object() -> Row? {
            guard expect(UInt8(ascii: "{")) else { return nil }
            var fields = Row(bytes: bytes)
            expectedKey = 0
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                position += 1
                return fields
            }
            while true {
                guard expect(UInt8(ascii: "\"")), let key = keyIndex(), expect(UInt8(ascii: ":")), let value = value() else {
                    return nil
                }
                if key >= 0 {
                    // A known key given twice: JSONDecoder's reading (the last one) is the rule.
                    guard fields.slot(key) == 0 else { return nil }
                    fields.set(key, kind: value.kind, start: value.start, end: value.end)
                }
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard current == UInt8(ascii: "}") else { return nil }
                position += 1
                return fields
            }
        }

        /// After a key's opening quote, up to and past the closing one: its position in
        /// `RawTickerRow.keys`, −1 for another key, `nil` where `string()` would fail.
        mutating func keyIndex() -> Int? {
            let start = position
            while let byte = current, byte != UInt8(ascii: "\"") {
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
                position += 1
            }
            guard current != nil else { return nil }
            let key = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
            position += 1
            if expectedKey < keys.count, keys[expectedKey].count == key.count, keys[expectedKey].elementsEqual(key) {
                expectedKey += 1
                return expectedKey - 1
            }
            for (index, known) in keys.enumerated() where known.count == key.count && known.elementsEqual(key) {
                expectedKey = index + 1
                return index
            }
            return -1
        }

        mutating func value() -> (kind: UInt64, start: Int, end: Int)? {
            skipWhitespace()
            guard let byte = current else { return nil }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                let start = position
                guard string() else { return nil }
                // Lengths are kept in 24 bits; no field of a ticker is near 16 MiB.
                guard position - 1 - start < 1 << 24 else { return nil }
                return (Row.string, start, position - 1)
            case UInt8(ascii: "n"):
                guard position + 4 <= bytes.count, bytes[position + 1] == UInt8(ascii: "u"),
                    bytes[position + 2] == UInt8(ascii: "l"), bytes[position + 3] == UInt8(ascii: "l")
                else { return nil }
                position += 4
                return (Row.null, position - 4, position - 4)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = position
                guard integer() else { return nil }
                return (Row.integer, start, position)
            default:
                return nil
            }
        }

        /// After the opening quote; up to and past the closing one. `false` for an escape, a
        /// control character or a byte outside ASCII (JSONDecoder's reading is the rule then).
        mutating func string() -> Bool {
            while let byte = current {
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return true
                }
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return false }
                position += 1
            }
            return false
        }

        /// A plain non-zero integer of up to 19 digits (`at`); fractions, exponents and zero go
        /// to JSONDecoder (zero is no `Decimal` of `DecimalParts`).
        mutating func integer() -> Bool {
            if current == UInt8(ascii: "-") { position += 1 }
            let digitsStart = position
            while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { position += 1 }
            let digits = position - digitsStart
            guard digits > 0, digits <= 19, digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { return false }
            guard digits > 1 || bytes[digitsStart] != UInt8(ascii: "0") else { return false }
            if let byte = current, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                return false
            }
            return true
        }
    }
}
