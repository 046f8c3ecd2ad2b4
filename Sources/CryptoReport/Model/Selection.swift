/// Which markets a report shows, and in what order.
public struct Selection: Sendable, Equatable {
    public enum Markets: String, Sendable, Codable, CaseIterable {
        /// One market per base asset: usdt, else inr, else btc, else wrx, else the first by quote name.
        case primary
        case all
    }

    public enum SortKey: String, Sendable, Codable, CaseIterable {
        case change, volume, spread, name, price
    }

    public var markets: Markets = .primary
    /// Base assets or market symbols, lower case; empty keeps every market.
    public var symbols: [String] = []
    /// Volume value, descending, unless asked otherwise.
    public var sort: SortKey = .volume
    public var top: Int? = nil

    /// The defaults.
    public init() {}

    public init(markets: Markets = .primary, symbols: [String] = [], sort: SortKey = .volume, top: Int? = nil) {
        self.markets = markets
        self.symbols = symbols.map { $0.lowercased() }
        self.sort = sort
        self.top = top
    }
}
