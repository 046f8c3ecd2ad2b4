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

    /// The ECB currency an asset or a limit's currency stands for, upper case: USDT is USD at
    /// par, as every USDT market is converted (`CurrencyConverter`); any other is itself. One
    /// rule for the rates card, the alerts and the converter, which each wrote it.
    package static func atPar(_ asset: String) -> String {
        let code = asset.uppercased()
        return code == "USDT" ? "USD" : code
    }

    public static func < (left: CurrencyCode, right: CurrencyCode) -> Bool { left.code < right.code }
}
