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

    /// The totals recorded by earlier runs (the history keeps one per run and currency), in the
    /// report currency of each day.
    public struct Past: Sendable, Equatable {
        /// The previous recorded report's total.
        public var previous: Decimal?
        /// The newest total 7 to 8 days, and 30 to 31 days, before this report's data.
        public var weekAgo: Decimal?
        public var monthAgo: Decimal?
        /// One total per UTC day (each day's last run) from the 30-day total on, then this
        /// report's; `days` names each one's day (`2022-11-22`).
        public var series: [Decimal] = []
        public var days: [String] = []

        public init(previous: Decimal? = nil, weekAgo: Decimal? = nil, monthAgo: Decimal? = nil, series: [Decimal] = [], days: [String] = []) {
            self.previous = previous
            self.weekAgo = weekAgo
            self.monthAgo = monthAgo
            self.series = series
            self.days = days
        }
    }

    /// A change of the total over a period, in money and in percent of the earlier total.
    public struct Change: Sendable, Equatable {
        public var money: Decimal
        /// nil when the earlier total was zero.
        public var percent: Decimal?
    }

    public var currency: String
    public var total: Decimal
    /// Over 24 h in money and in percent; nil when a position has no open price.
    public var change24h: Decimal?
    public var change24hPercent: Decimal?
    public var positions: [Position]
    /// nil without history.
    public var past: Past? = nil

    /// Since the previous recorded report, over 7 and over 30 days: nil where the history has no
    /// total of that time.
    public var sinceLastReport: Change? { change(from: past?.previous) }
    public var change7d: Change? { change(from: past?.weekAgo) }
    public var change30d: Change? { change(from: past?.monthAgo) }

    func change(from earlier: Decimal?) -> Change? {
        guard let earlier else { return nil }
        return Change(money: total - earlier, percent: earlier > 0 ? (total - earlier) / earlier * 100 : nil)
    }
}
