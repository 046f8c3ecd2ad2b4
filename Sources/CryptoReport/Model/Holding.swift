public import Foundation

/// One asset the reader holds (`--holding btc=0.5`, the file's `[holdings]`): its amount, and
/// optionally what was paid for it, in any ECB currency or USDT.
public struct Holding: Sendable, Equatable {
    /// Lower case, as the feeds name base assets.
    public var asset: String
    public var amount: Decimal
    public var cost: Decimal?
    /// Upper case: an ECB currency, EUR or USDT (at par with USD).
    public var costCurrency: String?

    public init(asset: String, amount: Decimal, cost: Decimal? = nil, costCurrency: String? = nil) {
        self.asset = asset.lowercased()
        self.amount = amount
        self.cost = cost
        self.costCurrency = costCurrency?.uppercased()
    }

    /// `btc=0.5` or `btc=0.5@150000 SEK`; nil for anything else (a negative or empty amount, a
    /// cost without its currency).
    public init?(parsing text: String) {
        let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 20, parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return nil }
        let sides = parts[1].split(separator: "@", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let amount = Self.amount(sides[0]) else { return nil }
        var cost: Decimal?
        var currency: String?
        if sides.count == 2 {
            let words = sides[1].split(separator: " ", omittingEmptySubsequences: true)
            guard words.count == 2, let value = Self.amount(String(words[0])), words[1].count == 3 || words[1].uppercased() == "USDT",
                words[1].allSatisfy(\.isLetter)
            else { return nil }
            cost = value
            currency = String(words[1])
        }
        self.init(asset: parts[0], amount: amount, cost: cost, costCurrency: currency)
    }

    /// A plain decimal of zero or more: `0.5`, `2`, `1_000`.
    static func amount(_ text: String) -> Decimal? {
        let digits = text.replacingOccurrences(of: "_", with: "")
        guard digits.wholeMatch(of: /[0-9]+(\.[0-9]+)?/) != nil else { return nil }
        return Decimal(string: digits, locale: Locale(identifier: "en_US_POSIX"))
    }
}

/// The holdings valued in a report's currency at each asset's primary market price (the price
/// the table shows for that market).
public struct HoldingsValue: Sendable, Equatable {
    public struct Position: Sendable, Equatable {
        public var asset: String
        public var amount: Decimal
        /// The market priced through, as the table names it.
        public var market: String
        public var price: Decimal
        public var value: Decimal
        public var sharePercent: Decimal
        /// What was paid, in the report currency; nil without a cost.
        public var cost: Decimal?
        public var gain: Decimal?
        public var gainPercent: Decimal?
        /// The value at the market's 24 h open price; nil without one.
        public var valueDayAgo: Decimal?
    }

    public var currency: String
    public var total: Decimal
    /// Over 24 h in money and in percent; nil when a position has no open price.
    public var change24h: Decimal?
    public var change24hPercent: Decimal?
    public var positions: [Position]
}
