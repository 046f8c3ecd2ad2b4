import Foundation

/// Reads the common shape of the ticker body straight from its bytes: an array of flat objects
/// whose values are ASCII strings without escapes, integers or `null`.
///
/// Written by hand because JSONDecoder first indexes the whole body and then decodes each field
/// through `Decodable`, trying a string, then a number, by throwing: at 100,000 markets that was a
/// fifth of a report's memory and a tenth of its time. Anything else — an escape, a fraction or
/// exponent, a nested value, `true`, a key given twice, a byte outside ASCII, a malformed body —
/// returns `nil`, and `TickerDecoder` reads the body with JSONDecoder as before, so every error
/// and every odd value keeps its meaning. A test reads every fixture both ways.
enum TickerScanner {
    static func rows(_ data: Data) -> [RawTickerRow]? {
        var rows: [RawTickerRow] = []
        guard forEachRow(data, { rows.append($0) }) != nil else { return nil }
        return rows
    }

    /// Hands each row to `body` as it is read, so that a large body is never held as rows all at
    /// once; the number of rows, or `nil` (after some rows perhaps) when JSONDecoder must read it.
    static func forEachRow(_ data: Data, _ body: (RawTickerRow) -> Void) -> Int? {
        data.withUnsafeBytes { raw -> Int? in
            var scanner = Cursor(bytes: raw)
            return scanner.array(body)
        }
    }

    /// The keys' bytes, to match a key without making a string of it.
    static let keyBytes: [[UInt8]] = RawTickerRow.keys.map { Array($0.utf8) }

    struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var position = 0

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

        mutating func array(_ body: (RawTickerRow) -> Void) -> Int? {
            guard expect(UInt8(ascii: "[")) else { return nil }
            var count = 0
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                position += 1
            } else {
                while true {
                    guard let fields = object() else { return nil }
                    body(RawTickerRow(fields: fields))
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

        mutating func object() -> RawTickerRow.Fields? {
            guard expect(UInt8(ascii: "{")) else { return nil }
            var fields = RawTickerRow.Fields()
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
                    guard fields[key] == nil else { return nil }
                    fields[key] = value
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
            for (index, known) in TickerScanner.keyBytes.enumerated() where known.count == key.count && known.elementsEqual(key) {
                return index
            }
            return -1
        }

        mutating func value() -> JSONScalar? {
            skipWhitespace()
            guard let byte = current else { return nil }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return string().map(JSONScalar.string)
            case UInt8(ascii: "n"):
                guard position + 4 <= bytes.count, bytes[position + 1] == UInt8(ascii: "u"),
                    bytes[position + 2] == UInt8(ascii: "l"), bytes[position + 3] == UInt8(ascii: "l")
                else { return nil }
                position += 4
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return integer()
            default:
                return nil
            }
        }

        /// After the opening quote; up to and past the closing one.
        mutating func string() -> String? {
            let start = position
            while let byte = current {
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                    position += 1
                    return text
                }
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
                position += 1
            }
            return nil
        }

        /// A plain integer of up to 19 digits (`at`); fractions and exponents go to JSONDecoder.
        mutating func integer() -> JSONScalar? {
            let start = position
            if current == UInt8(ascii: "-") { position += 1 }
            let digitsStart = position
            while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { position += 1 }
            let digits = position - digitsStart
            guard digits > 0, digits <= 19, digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { return nil }
            if let byte = current, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                return nil
            }
            let text = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
            guard let parts = text.withMemoryRebound(to: UInt8.self, { DecimalParts.parse($0) }), let value = parts.decimal else { return nil }
            return .number(value)
        }
    }
}
