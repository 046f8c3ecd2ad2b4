/// An ISO 4217 code as the ECB writes it: three ASCII letters, upper case.
public struct CurrencyCode: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let code: String

    /// Any case is accepted (`sek`); the code is kept in upper case.
    public init?(_ text: String) {
        guard text.utf8.count == 3, text.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        code = text.uppercased()
    }

    public static let usd = CurrencyCode(unchecked: "USD")
    public static let eur = CurrencyCode(unchecked: "EUR")

    private init(unchecked code: String) { self.code = code }

    public var description: String { code }

    public static func < (left: CurrencyCode, right: CurrencyCode) -> Bool { left.code < right.code }
}
