public import Foundation

/// One alert rule from the configuration file:
/// `btc above 60000 SEK`, `eth below 1500 USD`, `any move 10 %`, `sol move 5 % since last report`,
/// `holdings below 100000 SEK`, `holdings move 5 % since last report`.
public struct AlertRule: Sendable, Equatable, CustomStringConvertible {
    public enum Condition: Sendable, Equatable {
        case above(Decimal, currency: String)
        case below(Decimal, currency: String)
        /// The 24 h change beyond ± this many percent.
        case move(Decimal)
        /// The change since the previous recorded report beyond ± this many percent.
        case moveSinceLastReport(Decimal)
    }

    /// A base asset or market symbol, lower case; `nil` for `any`; `holdings` for the total of
    /// the reader's holdings (`holdings below 100000 SEK`).
    public var asset: String?
    /// The subject word that names the holdings' total.
    public static let holdings = "holdings"
    public var watchesHoldings: Bool { asset == Self.holdings }
    public var condition: Condition
    public var description: String

    public struct ParseError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public init(parsing text: String) throws(ParseError) {
        description = text.trimmingCharacters(in: .whitespaces)
        // "10%" and "10 %" alike.
        let words = description.lowercased().replacingOccurrences(of: "%", with: " % ")
            .split(separator: " ").map(String.init)
        let usage =
            "alert \"\(description)\" is not a rule; write e.g. \"btc above 60000 SEK\", \"eth below 1500 USD\", \"any move 10 %\", \"sol move 5 % since last report\" or \"holdings below 100000 SEK\""
        guard words.count >= 3 else { throw ParseError(message: usage) }
        asset = words[0] == "any" ? nil : words[0]
        guard let number = DecimalText.parse(words[2]), number > 0 else {
            // `60,000` or `0,5`: the rule is read the same in every locale, so say how to write it.
            if words[2].contains(",") {
                throw ParseError(message: "alert \"\(description)\": write \(words[2]) with a point for the fraction and no grouping, as in 60000 or 0.5")
            }
            // A number that is zero or below: a price limit or a move is above zero.
            if DecimalText.parse(words[2]) != nil {
                throw ParseError(message: "alert \"\(description)\": \(words[2]) is not above zero; a price limit or a move is a positive number")
            }
            throw ParseError(message: usage)
        }
        switch (words[1], Array(words.dropFirst(3))) {
        case ("above", let rest) where rest.count == 1 && asset != nil:
            condition = .above(number, currency: rest[0].uppercased())
        case ("below", let rest) where rest.count == 1 && asset != nil:
            condition = .below(number, currency: rest[0].uppercased())
        case ("move", ["%"]):
            condition = .move(number)
        case ("move", ["%", "since", "last", "report"]):
            condition = .moveSinceLastReport(number)
        default:
            throw ParseError(message: usage)
        }
    }
}
