import Foundation

/// The report as JSON values: what `JSONEncoder` writes, and `MarketWriter` writes by hand for
/// the markets.
extension JSONRenderer {
    struct Document: Encodable {
        var report: Meta
        var sources: Sources
        var ratesUsed: [Rate]
        var summary: Summary
        var markets: [Market]
        var warnings: [String]
        var notices: [NoticeItem]
        var freshness: FreshnessItem
        var alerts: [AlertItem]
        var holdings: HoldingsItem?

        enum CodingKeys: String, CodingKey {
            case report, sources, summary, markets, warnings, notices, freshness, alerts, holdings
            case ratesUsed = "rates_used"
        }

        init(_ report: Report, withMarkets: Bool = true) {
            self.report = Meta(
                generatedAt: ReportDates.iso8601(report.generatedAt), currency: report.currency,
                locale: report.localeIdentifier, dataDate: report.dataDate)
            var sources = Sources()
            for info in report.sources {
                var liveError: String?
                if case let .cache(error) = info.origin { liveError = error }
                let source = Source(
                    url: info.location, status: info.status.rawValue, liveError: liveError,
                    fetchedAt: ReportDates.iso8601(info.fetchedAt),
                    newestTickerAt: info.source.isMarketData ? report.summary.newestTickerAt.map(ReportDates.iso8601) : nil,
                    rateDate: info.source == .rates ? report.rates.date : nil)
                switch info.source {
                case .tickers, .binanceTickers, .binanceUSTickers: sources.tickers = source
                case .rates: sources.rates = source
                // backfill's alone, or what splits the tickers' symbols: no figure of the report is from it
                case .klines, .binanceInfo, .binanceUSInfo, .wazirxAssets, .notice: break
                }
            }
            self.sources = sources
            ratesUsed = report.summary.ratesUsed.map {
                Rate(quoteAsset: $0.quoteAsset, currency: report.currency, rate: JSONRenderer.number($0.rate) ?? "", via: $0.via)
            }
            summary = Summary(report.summary)
            markets = withMarkets ? report.rows.map(Market.init) : []
            warnings = DiagnosticText.lines(report)
            notices = report.notices.map { NoticeItem(kind: $0.kind.rawValue, text: NoticeText.text($0)) }
            alerts = zip(report.alerts, AlertText.messages(report)).map { alert, message in
                AlertItem(
                    rule: alert.rule.description, symbol: alert.symbol, value: DecimalParts.plainText(alert.value),
                    unit: alert.unit, message: message)
            }
            holdings = report.holdings.map(HoldingsItem.init)
            let f = report.freshness
            freshness = FreshnessItem(
                tickerReference: ReportDates.iso8601(f.tickerReference), expectedRatesDate: f.expectedRatesDate,
                ratesBehind: f.ratesBehind, ratesAhead: f.ratesAhead, staleMarkets: f.staleMarkets, exchangeHalt: f.halt?.rawValue)
        }
    }

    struct TrendItem: Encodable {
        var sincePrevious: String?
        var change7d: String?
        var change30d: String?
        /// Daily prices, oldest first, ending with this report's.
        var series: [String]
        enum CodingKeys: String, CodingKey {
            case series
            case sincePrevious = "change_prev_pct"
            case change7d = "change_7d_pct"
            case change30d = "change_30d_pct"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(sincePrevious, forKey: .sincePrevious)
            try container.encode(change7d, forKey: .change7d)
            try container.encode(change30d, forKey: .change30d)
            try container.encode(series, forKey: .series)
        }
    }

    struct AlertItem: Encodable {
        var rule, symbol, value, unit, message: String
    }

    struct NoticeItem: Encodable {
        var kind: String
        var text: String
    }

    struct FreshnessItem: Encodable {
        var tickerReference: String
        var expectedRatesDate: String
        var ratesBehind: Bool
        var ratesAhead: Bool
        var staleMarkets: Int
        var exchangeHalt: String?
        enum CodingKeys: String, CodingKey {
            case tickerReference = "ticker_reference"
            case expectedRatesDate = "expected_rates_date"
            case ratesBehind = "rates_behind"
            case ratesAhead = "rates_ahead"
            case staleMarkets = "stale_markets"
            case exchangeHalt = "exchange_halt"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(tickerReference, forKey: .tickerReference)
            try container.encode(expectedRatesDate, forKey: .expectedRatesDate)
            try container.encode(ratesBehind, forKey: .ratesBehind)
            try container.encode(ratesAhead, forKey: .ratesAhead)
            try container.encode(staleMarkets, forKey: .staleMarkets)
            try container.encode(exchangeHalt, forKey: .exchangeHalt)
        }
    }

    struct Meta: Encodable {
        var generatedAt: String
        var currency: String
        var locale: String
        var dataDate: String
        enum CodingKeys: String, CodingKey {
            case currency, locale
            case generatedAt = "generated_at"
            case dataDate = "data_date"
        }
    }

    struct Sources: Encodable {
        var tickers: Source?
        var rates: Source?
    }

    struct Source: Encodable {
        var url: String
        /// `live`, `file`, `sample` or `cached`.
        var status: String
        /// Why the cached copy was used; absent when live.
        var liveError: String?
        var fetchedAt: String
        var newestTickerAt: String?
        var rateDate: String?
        enum CodingKeys: String, CodingKey {
            case url, status
            case liveError = "live_error"
            case fetchedAt = "fetched_at"
            case newestTickerAt = "newest_ticker_at"
            case rateDate = "rate_date"
        }
    }

    struct Rate: Encodable {
        var quoteAsset: String
        var currency: String
        var rate: String
        var via: String
        enum CodingKeys: String, CodingKey {
            case currency, rate, via
            case quoteAsset = "quote_asset"
        }
    }

    struct Summary: Encodable {
        var counts: [String: Int]
        var advancers: Int
        var decliners: Int
        var unchanged: Int
        var inrPremium: [String: String]?
        var gainers: [Mover]
        var losers: [Mover]
        var topVolume: [Mover]
        var widestSpreads: [Mover]
        /// The least volume value a market needed for the four lists, and how many it left out.
        var volumeFloor: String
        var belowVolumeFloor: Int
        enum CodingKeys: String, CodingKey {
            case counts, advancers, decliners, unchanged, gainers, losers
            case volumeFloor = "volume_floor"
            case belowVolumeFloor = "below_volume_floor"
            case inrPremium = "inr_premium"
            case topVolume = "top_volume"
            case widestSpreads = "widest_spreads"
        }

        init(_ summary: ReportSummary) {
            let counts = summary.counts
            self.counts = [
                "tickers_received": counts.tickersReceived, "skipped": counts.skipped, "not_trading": counts.notTrading,
                "unconvertible": counts.unconvertible, "converted": counts.converted,
                "selected": counts.selected, "shown": counts.shown, "assets": counts.assets,
            ]
            advancers = summary.advancers
            decliners = summary.decliners
            unchanged = summary.unchanged
            inrPremium = summary.inrPremium.map {
                [
                    "usdtinr_last": DecimalParts.plainText($0.usdtInrLast), "ecb_usd_inr": DecimalParts.plainText($0.ecbUsdInr),
                    "percent": DecimalParts.plainText($0.percent),
                ]
            }
            gainers = summary.gainers.map { Mover(symbol: $0.symbol, value: JSONRenderer.number($0.changePercent)) }
            losers = summary.losers.map { Mover(symbol: $0.symbol, value: JSONRenderer.number($0.changePercent)) }
            topVolume = summary.topVolume.map { Mover(symbol: $0.symbol, value: JSONRenderer.number($0.volumeValue)) }
            widestSpreads = summary.widestSpreads.map { Mover(symbol: $0.symbol, value: JSONRenderer.number($0.spreadPercent)) }
            volumeFloor = DecimalParts.plainText(summary.volumeFloor)
            belowVolumeFloor = summary.belowVolumeFloor
        }
    }

    struct Mover: Encodable {
        var symbol: String
        var value: String?
    }

    struct Market: Encodable {
        var values: [(String, String?)]
        /// Absent, not null, when the asset's name is not known.
        var name: String?
        var stale: Bool
        var trend: TrendItem?

        init(_ row: MarketRow) {
            values = [
                ("symbol", row.symbol), ("base_asset", row.baseAsset), ("quote_asset", row.quoteAsset),
                ("currency", row.currency), ("price", JSONRenderer.number(row.price)),
                ("open", JSONRenderer.number(row.open)), ("high", JSONRenderer.number(row.high)),
                ("low", JSONRenderer.number(row.low)), ("bid", JSONRenderer.number(row.bid)),
                ("ask", JSONRenderer.number(row.ask)), ("change_pct", JSONRenderer.number(row.changePercent)),
                ("spread", JSONRenderer.number(row.spread)), ("spread_pct", JSONRenderer.number(row.spreadPercent)),
                ("volume", JSONRenderer.number(row.volume)), ("volume_value", JSONRenderer.number(row.volumeValue)),
                ("fx_rate", JSONRenderer.number(row.fxRate)), ("updated_at", row.updatedAt.map(ReportDates.iso8601)),
                ("source", row.exchange.rawValue),
            ]
            name = row.name
            stale = row.isStale
            trend = row.trend.map {
                TrendItem(
                    sincePrevious: JSONRenderer.number($0.sincePrevious), change7d: JSONRenderer.number($0.change7d),
                    change30d: JSONRenderer.number($0.change30d), series: $0.series.map(DecimalParts.plainText))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in values {
                // Empty figures are null, so a reader can tell "none" from "zero".
                try container.encode(value, forKey: AnyCodingKey(stringValue: key))
            }
            if let name { try container.encode(name, forKey: AnyCodingKey(stringValue: "name")) }
            try container.encode(stale, forKey: AnyCodingKey(stringValue: "stale"))
            if let trend { try container.encode(trend, forKey: AnyCodingKey(stringValue: "trend")) }
        }
    }

    /// `holdings`: the reader's holdings in the report currency; absent without holdings.
    struct HoldingsItem: Encodable {
        struct Position: Encodable {
            var asset, amount, market, price, value: String
            var sharePercent: String
            var cost, gain: String?
            enum CodingKeys: String, CodingKey {
                case asset, amount, market, price, value, cost, gain
                case sharePercent = "share_pct"
            }
        }

        var currency: String
        var totalValue: String
        var change24h: String?
        var change24hPercent: String?
        var change7d, change7dPercent, change30d, change30dPercent: String?
        var positions: [Position]
        enum CodingKeys: String, CodingKey {
            case currency, positions
            case totalValue = "total_value"
            case change24h = "change_24h"
            case change24hPercent = "change_24h_pct"
            case change7d = "change_7d"
            case change7dPercent = "change_7d_pct"
            case change30d = "change_30d"
            case change30dPercent = "change_30d_pct"
        }

        init(_ value: HoldingsValue) {
            currency = value.currency
            totalValue = JSONRenderer.number(value.total) ?? "0"
            change24h = JSONRenderer.number(value.change24h)
            change24hPercent = JSONRenderer.number(value.change24hPercent)
            change7d = JSONRenderer.number(value.change7d?.money)
            change7dPercent = JSONRenderer.number(value.change7d?.percent)
            change30d = JSONRenderer.number(value.change30d?.money)
            change30dPercent = JSONRenderer.number(value.change30d?.percent)
            positions = value.positions.map {
                Position(
                    asset: $0.asset, amount: JSONRenderer.number($0.amount) ?? "0", market: $0.market, price: JSONRenderer.number($0.price) ?? "0",
                    value: JSONRenderer.number($0.value) ?? "0", sharePercent: JSONRenderer.number($0.sharePercent) ?? "0",
                    cost: JSONRenderer.number($0.cost), gain: JSONRenderer.number($0.gain))
            }
        }
    }
}
