import Foundation
import Testing

@testable import CryptoReport

@Suite("Choosing and ordering markets")
struct SelectionTests {
    static func row(_ symbol: String, _ base: String, _ quote: String, volumeValue: Decimal? = 1, change: Decimal? = nil) -> MarketRow {
        MarketRow(
            symbol: symbol, baseAsset: base, quoteAsset: quote, currency: "USD", price: 1, changePercent: change,
            volumeValue: volumeValue, fxRate: 1)
    }

    static let rows = [
        row("btcinr", "btc", "inr", volumeValue: 50, change: 1),
        row("btcusdt", "btc", "usdt", volumeValue: 10, change: -2),
        row("ethbtc", "eth", "btc", volumeValue: 30),
        row("ethinr", "eth", "inr", volumeValue: 20, change: 3),
        row("dogewrx", "doge", "wrx", volumeValue: 5),
        row("dogebtc", "doge", "btc", volumeValue: 6),
        row("shibzzz", "shib", "zzz", volumeValue: nil),
        row("shibaaa", "shib", "aaa", volumeValue: 7),
    ]

    @Test("primary: usdt, else inr, else btc, else wrx, else the first quote by name")
    func primary() {
        let selected = MarketSelector(Selection()).select(Self.rows).map(\.symbol)
        #expect(Set(selected) == ["btcusdt", "ethinr", "dogebtc", "shibaaa"])
    }

    @Test("all keeps every market, ordered by volume value, empty last")
    func all() {
        let selected = MarketSelector(Selection(markets: .all)).select(Self.rows).map(\.symbol)
        #expect(selected == ["btcinr", "ethbtc", "ethinr", "btcusdt", "shibaaa", "dogebtc", "dogewrx", "shibzzz"])
    }

    @Test("symbols filter by base asset (primary market) or by exact market symbol")
    func symbols() {
        let selection = Selection(symbols: ["BTC", "dogewrx"])
        #expect(MarketSelector(selection).select(Self.rows).map(\.symbol) == ["btcusdt", "dogewrx"])
        let all = Selection(markets: .all, symbols: ["eth"])
        #expect(MarketSelector(all).select(Self.rows).map(\.symbol) == ["ethbtc", "ethinr"])
    }

    @Test("a --symbols entry that names no market is reported, so a typo does not pass for a quiet market")
    func unmatchedSymbols() {
        let tickers = Self.rows.map { Ticker(symbol: $0.symbol, baseAsset: $0.baseAsset, quoteAsset: $0.quoteAsset, last: 1) }
        let selector = MarketSelector(Selection(symbols: ["btc", "dogewrx", "nosuch", "btcusd"]))
        #expect(selector.unmatched(in: tickers) == ["nosuch", "btcusd"])
        #expect(MarketSelector(Selection()).unmatched(in: tickers).isEmpty)
    }

    @Test("sort by change puts empty changes last; top cuts")
    func sortAndTop() {
        let selector = MarketSelector(Selection(markets: .all, sort: .change, top: 3))
        let selected = selector.select(Self.rows)
        #expect(selected.prefix(3).map(\.symbol) == ["ethinr", "btcinr", "btcusdt"])
        #expect(selector.cut(selected).count == 3)
    }

    @Test("sort by name")
    func byName() {
        let selected = MarketSelector(Selection(markets: .all, sort: .name)).select(Self.rows).map(\.symbol)
        #expect(selected == selected.sorted())
    }
}
