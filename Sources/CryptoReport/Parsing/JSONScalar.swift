import Foundation

/// One JSON value of a ticker field, whatever type the API chose to send it as.
enum JSONScalar: Decodable, Sendable {
    case string(String)
    case number(Decimal)
    case bool(Bool)
    case null
    /// An array or an object where a scalar was expected.
    case structured

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let number = try? container.decode(Decimal.self) {
            self = .number(number)
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else {
            self = .structured
        }
    }

    /// How a message quotes the value.
    var quoted: String {
        switch self {
        case let .string(text): "\"\(Self.printable(text, limit: 40))\""
        case let .number(value): "\(value)"
        case let .bool(flag): "\(flag)"
        case .null: "null"
        case .structured: "(an array, an object or an out-of-range number)"
        }
    }

    /// The server's text as a warning may show it: warnings are one line each, and a line feed in
    /// a field (`"at":"abc\nWazirX tickers: …"`, found by the fuzzer) would split one or forge
    /// another. Control characters and line separators become spaces, format characters go, and
    /// nothing joins the quotes around it (`SourceText`); unlike `TickerDecoder.oneLine`, blanks
    /// are kept as sent, since a stray space is often what is wrong with the value.
    static func printable(_ text: String, limit: Int) -> String {
        let visible = SourceText.printable(text, quoted: true)
        return visible.count > limit ? String(visible.prefix(limit)) + "…" : visible
    }

    var decimal: Decimal? {
        switch self {
        case let .string(text): DecimalText.parse(text)
        case let .number(value): DecimalText.inRange(value) ? value : nil
        default: nil
        }
    }

    /// Why a value that reads as a number is refused (`DecimalText.refusal`), else `nil`.
    var refusal: String? {
        switch self {
        case let .string(text): DecimalText.refusal(text)
        case let .number(value): DecimalText.inRange(value) || value.isSignMinus ? nil : DecimalText.outOfRange
        default: nil
        }
    }

    var text: String? {
        if case let .string(text) = self { return text }
        return nil
    }
}

/// A key for containers whose keys are not known in advance.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
