import Foundation

/// What the first bytes of an XML document say about how to read the rest, for the checks both
/// ECB readers make before libxml2 sees a document.
enum XMLPrologue {
    /// The encodings libxml2 reads the same way in its tree parser and its streaming reader. It
    /// hands any other name to a converter, and the two paths then part: the tree parser read
    /// `encoding="UTF.8"` through ICU and refused a bad byte, the reader read on (the fuzzer
    /// found it). The ECB sends UTF-8.
    static let readableEncodings: Set<String> = ["utf-8", "utf-16", "utf-16le", "utf-16be", "iso-8859-1", "us-ascii"]

    enum Width {
        case eightBit
        /// Little-endian, big-endian: the first code unit's zero byte comes second or first.
        case utf16(littleEndian: Bool)
    }

    /// UTF-16 is told by its byte order mark, or by a zero in either of the first two bytes.
    static func width(of bytes: UnsafeRawBufferPointer) -> Width {
        guard bytes.count >= 2 else { return .eightBit }
        switch (bytes[0], bytes[1]) {
        case (0xFF, 0xFE): return .utf16(littleEndian: true)
        case (0xFE, 0xFF): return .utf16(littleEndian: false)
        case (_, 0): return .utf16(littleEndian: true)
        case (0, _): return .utf16(littleEndian: false)
        default: return .eightBit
        }
    }

    /// The `encoding` of the XML declaration, if the document starts with one.
    static func declaredEncoding(_ data: Data) -> String? {
        let head = data.prefix(512).withUnsafeBytes { bytes -> String in
            switch width(of: bytes) {
            case .eightBit:
                return String(decoding: bytes, as: UTF8.self)
            case let .utf16(littleEndian):
                let units = stride(from: 0, to: bytes.count - 1, by: 2).map { index -> UInt16 in
                    let (low, high) = littleEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
                    return UInt16(high) << 8 | UInt16(low)
                }
                return String(decoding: units, as: UTF16.self)
            }
        }
        // Scanned by hand: Swift's `Regex` here cost the history fuzz harness two thirds of its speed.
        var rest = Substring(head)
        if rest.first == "\u{FEFF}" { rest = rest.dropFirst() }
        guard rest.hasPrefix("<?xml"), let end = rest.firstIndex(of: ">") else { return nil }
        let declaration = rest[..<end]
        guard let name = declaration.range(of: "encoding") else { return nil }
        var value = declaration[name.upperBound...].drop(while: \.isWhitespace)
        guard value.first == "=" else { return nil }
        value = value.dropFirst().drop(while: \.isWhitespace)
        guard let quote = value.first, quote == "\"" || quote == "'" else { return nil }
        return String(value.dropFirst().prefix { $0 != quote })
    }
}
