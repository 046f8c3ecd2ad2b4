package import Foundation

/// Decodes Binance's `GET /api/v3/ticker/24hr` body (Binance.US's alike) into validated tickers,
/// with the symbol table of the same exchange's `GET /api/v3/exchangeInfo`.
///
/// A Binance ticker names its market by one joined symbol (`ETHBTC`), which nothing but the
/// exchange's own table splits into base and quote asset: a ticker whose symbol the table lacks is
/// left out with a diagnostic, and one whose market is not trading is left out too, noted apart
/// (`Result.notTrading`, not a warning). Every other row is judged as a
/// WazirX row is (`TickerDecoder.validate`), under the exchange's own source name, and its
/// ticker named in lower case as WazirX's are (`ethbtc`, `eth`, `btc`).
package struct BinanceTickerDecoder: Sendable {
    package let exchange: Exchange
    /// The table's markets by their symbol as Binance spells it; the first entry of a symbol.
    let markets: [String: Market]
    /// The row judge, naming the exchange's tickers.
    private let judge: TickerDecoder

    /// One entry of exchangeInfo's `symbols`.
    struct Market: Sendable, Equatable {
        var baseAsset: String
        var quoteAsset: String
        var status: String
    }

    /// The status of a market that can be traded; any other (`BREAK`, `HALT`, …) leaves it out.
    static let trading = "TRADING"

    /// `exchangeInfo`: the exchange's `GET /api/v3/exchangeInfo` body, read once for its symbols.
    package init(exchange: Exchange, exchangeInfo: Data) throws(DataError) {
        self.exchange = exchange
        self.judge = TickerDecoder(source: exchange.tickers, timeKey: "closeTime")
        self.markets = try Self.markets(exchangeInfo, source: exchange.info ?? .binanceInfo)
    }

    /// Each row judged in the body's order, as `TickerDecoder.decode` judges WazirX's; only a body
    /// that is not a ticker array, or one without a single usable row, is an error.
    package func decode(_ data: Data) throws(DataError) -> TickerDecoder.Result {
        let rows = try judge.decodeRows(data, as: Row.self)
        let source = exchange.tickers
        var judged = TickerDecoder.Judged(source: source)
        var notTrading: [Diagnostic] = []
        for (index, row) in rows.enumerated() {
            // Not an object, or no symbol as a string: the judge says so.
            guard var fields = row.fields, let symbol = fields.text(.symbol) else {
                judged.add(judge.validate(row.fields, index: index), index: index)
                continue
            }
            guard let market = markets[symbol] else {
                let name = JSONScalar.printable(symbol, limit: TickerDecoder.maximumIdentifierLength)
                judged.diagnostics.append(
                    Diagnostic(source, "\(name) is not in \(exchange.displayName)'s exchangeInfo; left out", group: "not in exchangeInfo"))
                continue
            }
            guard market.status == Self.trading else {
                let name = JSONScalar.printable(symbol, limit: TickerDecoder.maximumIdentifierLength)
                let status = JSONScalar.printable(market.status, limit: 20)
                notTrading.append(Diagnostic(source, "\(name): not trading (\(status)); left out", group: "not trading"))
                continue
            }
            fields[RawTickerRow.Key.symbol.rawValue] = .string(symbol.lowercased())
            fields[RawTickerRow.Key.baseAsset.rawValue] = .string(market.baseAsset.lowercased())
            fields[RawTickerRow.Key.quoteAsset.rawValue] = .string(market.quoteAsset.lowercased())
            judged.add(judge.validate(fields, index: index), index: index)
        }
        guard !judged.tickers.isEmpty else {
            let first = judged.diagnostics.first ?? notTrading.first
            throw .noValidTickers(source: source, received: rows.count, firstProblem: first.flatMap(\.decoderNote))
        }
        return TickerDecoder.Result(tickers: judged.tickers, received: rows.count, diagnostics: judged.diagnostics, notTrading: notTrading)
    }

    // MARK: - Tickers

    /// One element of the ticker array, its fields under `RawTickerRow`'s keys: Binance's names
    /// are WazirX's but for the time, `closeTime`; base and quote asset come from exchangeInfo.
    struct Row: Decodable {
        /// Binance's name for each of `RawTickerRow.keys`; `nil`: not read from the ticker.
        static let keys: [String?] = [
            "symbol", nil, nil, "openPrice", "lowPrice", "highPrice", "lastPrice", "volume", "bidPrice", "askPrice", "closeTime",
        ]

        /// `nil` when the element is not an object.
        var fields: RawTickerRow.Fields?

        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: AnyCodingKey.self) else {
                fields = nil
                return
            }
            var fields = RawTickerRow.Fields()
            for (index, name) in Self.keys.enumerated() {
                guard let name else { continue }
                let key = AnyCodingKey(stringValue: name)
                guard container.contains(key) else { continue }
                fields[index] = (try? container.decode(JSONScalar.self, forKey: key)) ?? .structured
            }
            self.fields = fields
        }
    }

    // MARK: - exchangeInfo

    static let expectedInfo = "an exchangeInfo object with a symbols array"

    /// The usable entries of exchangeInfo's `symbols`: each with `symbol`, `baseAsset`,
    /// `quoteAsset` and `status` as non-empty strings.
    static func markets(_ data: Data, source: DataSource) throws(DataError) -> [String: Market] {
        let body = try TickerDecoder.decodeJSON(data, as: InfoBody.self, source: source, expected: expectedInfo)
        guard let entries = body.symbols else {
            // An error body is an object too, without symbols.
            if let apiError = try? JSONDecoder().decode(APIErrorBody.self, from: data), let message = apiError.message {
                throw .apiError(
                    source: source, code: apiError.code.map { TickerDecoder.oneLine($0, limit: 20) },
                    message: TickerDecoder.oneLine(message, limit: 200))
            }
            throw .malformed(source: source, expected: expectedInfo, detail: body.hasSymbols ? "its symbols is not an array" : "it has no symbols")
        }
        var markets: [String: Market] = [:]
        for entry in entries {
            guard let symbol = entry.symbol, let base = entry.baseAsset, let quote = entry.quoteAsset, let status = entry.status,
                ![symbol, base, quote, status].contains(where: \.isEmpty)
            else { continue }
            if markets[symbol] == nil { markets[symbol] = Market(baseAsset: base, quoteAsset: quote, status: status) }
        }
        guard !markets.isEmpty else {
            let detail =
                entries.isEmpty
                ? "its symbols array is empty"
                : "none of its \(entries.count) symbols has a symbol, baseAsset, quoteAsset and status as text"
            throw .malformed(source: source, expected: expectedInfo, detail: detail)
        }
        return markets
    }

    /// The exchangeInfo object; only `symbols` is read.
    private struct InfoBody: Decodable {
        /// `nil` when absent or not an array.
        var symbols: [InfoSymbol]?
        var hasSymbols: Bool

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            let key = AnyCodingKey(stringValue: "symbols")
            hasSymbols = container.contains(key)
            symbols = try? container.decode([InfoSymbol].self, forKey: key)
        }
    }

    /// One entry of `symbols`, every field `nil` unless it is a string (or the entry not an object).
    private struct InfoSymbol: Decodable {
        var symbol: String?
        var baseAsset: String?
        var quoteAsset: String?
        var status: String?

        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: AnyCodingKey.self) else { return }
            func text(_ name: String) -> String? { try? container.decode(String.self, forKey: AnyCodingKey(stringValue: name)) }
            symbol = text("symbol")
            baseAsset = text("baseAsset")
            quoteAsset = text("quoteAsset")
            status = text("status")
        }
    }
}
