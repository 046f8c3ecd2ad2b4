import Foundation

/// What the index shows of the run's report: its alerts, its breadth, the INR premium and the top
/// movers. Made from the report alone, so the index formats a dozen figures, not the report's
/// whole view model (every row and detail, which was a sixth of a run's time at 450 markets).
extension IndexRenderer {
    struct Mover {
        var symbol, pair, price, change, changeClass, arrow: String
    }

    struct Summary {
        var dataDate, currency: String
        var alerts: [ReportViewModel.AlertLine]
        var hasAlerts: Bool
        /// Folded as on the report's page; each alert opens its market on the run's page.
        var firstAlerts, moreAlerts: [ReportViewModel.AlertLine]
        var hasMoreAlerts: Bool
        var moreAlertsLabel: String
        /// The run's HTML page in the report's currency, which the alerts link into; empty when
        /// the run wrote none.
        var alertsPage: String
        var breadth: ReportViewModel.Breadth
        var hasInrPremium: Bool
        var inrPremium, inrPremiumClass, inrPremiumDetail: String
        var gainers, losers: [Mover]
        var hasGainers, hasLosers: Bool

        init(_ report: Report, strings t: PageStrings, page: String? = nil) {
            let locale = Locale(identifier: report.localeIdentifier)
            let numbers = PeopleNumberFormatter(currency: report.currency, locale: locale)
            let summary = report.summary
            dataDate = report.dataDate
            currency = report.currency
            func count(_ value: Int) -> String { value.formatted(.number.locale(locale)) }
            alerts = ReportViewModel.alertLines(report, strings: t, linked: page != nil)
            hasAlerts = !alerts.isEmpty
            (firstAlerts, moreAlerts, moreAlertsLabel) = ReportViewModel.folded(alerts, strings: t, count: count)
            hasMoreAlerts = !moreAlerts.isEmpty
            alertsPage = page ?? ""
            breadth = ReportViewModel.Breadth(summary, count: count)
            hasInrPremium = summary.inrPremium != nil
            inrPremium = numbers.percent(summary.inrPremium?.percent)
            inrPremiumClass = ReportViewModel.changeClass(summary.inrPremium?.percent)
            inrPremiumDetail =
                summary.inrPremium.map {
                    t.format(.inrPremiumDetail, numbers.number($0.usdtInrLast), numbers.number($0.ecbUsdInr))
                } ?? ""
            func mover(_ market: MarketRow) -> Mover {
                Mover(
                    symbol: market.symbol, pair: "\(market.baseAsset.uppercased())/\(market.quoteAsset.uppercased())",
                    price: numbers.money(market.price), change: numbers.percent(market.changePercent),
                    changeClass: ReportViewModel.changeClass(market.changePercent), arrow: ReportViewModel.arrow(market.changePercent))
            }
            gainers = summary.gainers.map(mover)
            losers = summary.losers.map(mover)
            hasGainers = !gainers.isEmpty
            hasLosers = !losers.isEmpty
        }
    }
}
