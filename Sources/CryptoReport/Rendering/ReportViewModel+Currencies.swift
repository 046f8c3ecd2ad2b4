import Foundation

/// One HTML page in two currencies (`--currency SEK,USD`): the page is the first currency's,
/// and every figure carries the second's beside it, matched by market (and by day for the
/// earlier points), for the page's switch. The summary above the table and the footer are
/// rendered once per currency (`views`), since their lists may differ in length.
extension ReportViewModel {
    /// A currency the page's switch offers.
    struct CurrencyChoice {
        var code: String
        /// `0` for the first currency, `1` for the second.
        var index: String
        var isFirst: Bool
    }

    init(_ report: Report, alternatives: [Report], lazyDetails: Bool = false) {
        self.init(report, lazyDetails: lazyDetails)
        guard var second = alternatives.first else { return }
        // One page, one language and one way of writing numbers: the page's locale (the first
        // currency's, or --locale's), in every view. The USD view of a Swedish page writes
        // −1,31 % and 16 100,00 US$, as `--locale sv_SE` would; the second currency's own
        // files (CSV, Markdown, JSON) keep its locale, from the report as it came.
        second.localeIdentifier = report.localeIdentifier
        var other = ReportViewModel(second, strings: t, lazyDetails: lazyDetails)
        other.viewIndex = "1"
        // Its holdings' section has an id of its own, and its holdings alerts lead to it.
        other.holdingsAnchor = "holdings-1"
        func relinked(_ lines: [AlertLine]) -> [AlertLine] {
            lines.map { line in
                var line = line
                if line.anchor == holdingsAnchor { line.anchor = other.holdingsAnchor }
                return line
            }
        }
        other.alerts = relinked(other.alerts)
        other.firstAlerts = relinked(other.firstAlerts)
        other.moreAlerts = relinked(other.moreAlerts)
        other.isSwitchable = true
        viewIndex = "0"
        isSwitchable = true
        currencyChoices = [
            CurrencyChoice(code: currency, index: "0", isFirst: true),
            CurrencyChoice(code: other.currency, index: "1", isFirst: false),
        ]
        currencyCodes = "\(currency) \(other.currency)"
        let otherRows = Dictionary(other.rows.map { ($0.symbol, $0) }, uniquingKeysWith: { first, _ in first })
        for index in rows.indices {
            rows[index].alt = otherRows[rows[index].symbol].map { [$0] } ?? []
        }
        if lazyDetails {
            alternativeRowIndex = Dictionary(other.rows.enumerated().map { ($1.symbol, $0) }, uniquingKeysWith: { first, _ in first })
        }
        let otherDetails = Dictionary(other.details.map { ($0.symbol, $0) }, uniquingKeysWith: { first, _ in first })
        for index in details.indices {
            guard let match = otherDetails[details[index].symbol] else { continue }
            details[index].pairWith(match)
        }
        converterData = Self.converterData([report, second])
        other.views = []
        var first = self
        first.views = []
        alternative = [other]
        views = [first, other]
    }
}

extension ReportViewModel {
    /// Each detail of the page, in the table's order: those held in `details`, or made one at a
    /// time (and paired with the second currency's) and let go once `body` has written them.
    func forEachDetail(_ body: (Detail) -> Void) {
        forEachDetail(in: 0..<detailCount, body)
    }

    /// How many details `forEachDetail` makes.
    var detailCount: Int {
        guard let maker = detailMaker else { return details.count }
        return min(rows.count, maker.report.rows.count)
    }

    /// The details at `range` of `0..<detailCount`, in order: the page writes them a chunk at a
    /// time on every core (`ParallelChunks`); each is made from its market alone.
    func forEachDetail(in range: Range<Int>, _ body: (Detail) -> Void) {
        guard let maker = detailMaker else {
            details[range].forEach(body)
            return
        }
        let other = alternative.first
        for index in range {
            var detail = maker.detail(maker.report.rows[index], row: rows[index])
            if let other, let otherMaker = other.detailMaker, let position = alternativeRowIndex[detail.symbol],
                position < otherMaker.report.rows.count
            {
                detail.pairWith(otherMaker.detail(otherMaker.report.rows[position], row: other.rows[position]))
            }
            body(detail)
        }
    }
}

extension ReportViewModel.Detail {
    /// Gives each figure of this detail its value in `other`'s currency.
    mutating func pairWith(_ other: ReportViewModel.Detail) {
        var other = other
        let otherOthers = Dictionary(other.others.map { ($0.symbol, $0) }, uniquingKeysWith: { first, _ in first })
        for index in others.indices {
            others[index].alt = otherOthers[others[index].symbol].map { [$0] } ?? []
        }
        // A USDT market in USD has no rate to show, in SEK it has: shown when either has one.
        hasRate = hasRate || other.hasRate
        other.hasRate = hasRate
        other.others = []
        alt = [other]
    }
}
