/// The two feeds a report is made from.
public enum DataSource: String, Sendable, Codable, CaseIterable {
    case tickers
    case rates

    /// How messages name the source.
    public var displayName: String {
        switch self {
        case .tickers: "WazirX tickers"
        case .rates: "ECB rates"
        }
    }
}
