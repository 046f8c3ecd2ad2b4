import Foundation

/// A ticker's fields as `TickerDecoder` judges them (`RawTickerRow.Fields`, JSONDecoder's values).
protocol TickerFields {
    func has(_ key: RawTickerRow.Key) -> Bool
    func isNull(_ key: RawTickerRow.Key) -> Bool
    /// A string value's text; `nil` for any other kind.
    func text(_ key: RawTickerRow.Key) -> String?
    /// `JSONScalar.decimal` of the value.
    func decimal(_ key: RawTickerRow.Key) -> Decimal?
    /// The value itself, for a message that quotes it.
    func scalar(_ key: RawTickerRow.Key) -> JSONScalar?
}

/// One element of the ticker array, read without judging it yet.
struct RawTickerRow: Decodable, Sendable {
    static let keys = ["symbol", "baseAsset", "quoteAsset", "openPrice", "lowPrice", "highPrice", "lastPrice", "volume", "bidPrice", "askPrice", "at"]

    /// `keys` by position.
    enum Key: Int {
        case symbol, baseAsset, quoteAsset, openPrice, lowPrice, highPrice, lastPrice, volume, bidPrice, askPrice, at
    }

    /// `nil` when the element is not an object.
    var fields: Fields?

    init(fields: Fields?) {
        self.fields = fields
    }

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: AnyCodingKey.self) else {
            fields = nil
            return
        }
        var fields = Fields()
        for (index, name) in Self.keys.enumerated() {
            let key = AnyCodingKey(stringValue: name)
            guard container.contains(key) else { continue }
            fields[index] = (try? container.decode(JSONScalar.self, forKey: key)) ?? .structured
        }
        self.fields = fields
    }

    /// The fields of `keys` an element has, in one slot each: no dictionary per ticker, with its
    /// allocation and a hash per field.
    struct Fields: TickerFields, Sendable {
        private var slots:
            (
                JSONScalar?, JSONScalar?, JSONScalar?, JSONScalar?, JSONScalar?, JSONScalar?, JSONScalar?, JSONScalar?, JSONScalar?,
                JSONScalar?, JSONScalar?
            ) = (nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil)

        init() {}

        /// By position in `RawTickerRow.keys`.
        subscript(index: Int) -> JSONScalar? {
            get {
                switch index {
                case 0: slots.0
                case 1: slots.1
                case 2: slots.2
                case 3: slots.3
                case 4: slots.4
                case 5: slots.5
                case 6: slots.6
                case 7: slots.7
                case 8: slots.8
                case 9: slots.9
                case 10: slots.10
                default: nil
                }
            }
            set {
                switch index {
                case 0: slots.0 = newValue
                case 1: slots.1 = newValue
                case 2: slots.2 = newValue
                case 3: slots.3 = newValue
                case 4: slots.4 = newValue
                case 5: slots.5 = newValue
                case 6: slots.6 = newValue
                case 7: slots.7 = newValue
                case 8: slots.8 = newValue
                case 9: slots.9 = newValue
                case 10: slots.10 = newValue
                default: break
                }
            }
        }

        subscript(key: Key) -> JSONScalar? { self[key.rawValue] }

        subscript(key: String) -> JSONScalar? {
            RawTickerRow.keys.firstIndex(of: key).flatMap { self[$0] }
        }

        func has(_ key: Key) -> Bool { self[key] != nil }

        func isNull(_ key: Key) -> Bool {
            if case .null? = self[key] { return true }
            return false
        }

        func text(_ key: Key) -> String? { self[key]?.text }
        func decimal(_ key: Key) -> Decimal? { self[key]?.decimal }
        func scalar(_ key: Key) -> JSONScalar? { self[key] }

        /// The names of the fields present, in `keys` order.
        var keys: [String] {
            RawTickerRow.keys.indices.filter { self[$0] != nil }.map { RawTickerRow.keys[$0] }
        }
    }
}

/// WazirX's error body: `{"code": -1121, "message": "Invalid symbol."}`.
struct APIErrorBody: Decodable {
    var code: String?
    var message: String?

    enum CodingKeys: String, CodingKey { case code, message, msg }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let number = try? container.decode(Int.self, forKey: .code) {
            code = String(number)
        } else {
            code = try? container.decode(String.self, forKey: .code)
        }
        message = (try? container.decode(String.self, forKey: .message)) ?? (try? container.decode(String.self, forKey: .msg))
    }
}
