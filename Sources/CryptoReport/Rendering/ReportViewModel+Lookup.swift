import Mustache

/// swift-mustache looks a key up through `Mirror` unless the value answers itself, and every row
/// of the table asks for some twenty keys: each answers here without reflection.
/// A test checks that every stored property answers here under its own name.
extension ReportViewModel.HoldingLine: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "asset": asset
        case "amount": amount
        case "market": market
        case "price": price
        case "value": value
        case "share": share
        case "gain": gain
        case "gainClass": gainClass
        default: nil
        }
    }
}

extension ReportViewModel.HoldingsChange: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": text
        case "changeClass": changeClass
        default: nil
        }
    }
}

extension ReportViewModel.AlertLine: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": text
        case "anchor": anchor
        case "hasAnchor": hasAnchor
        default: nil
        }
    }
}

extension ReportViewModel.MarketLine: MustacheParent {
    /// By the name's hash: a row is asked some sixty names, many of them the report's (`t`,
    /// `hasChange7d`), which a `switch` would first compare with each of its forty cases.
    private static let keys: [String: @Sendable (ReportViewModel.MarketLine) -> Any] = [
        "symbol": { $0.symbol },
        "pair": { $0.pair },
        "base": { $0.base },
        "quote": { $0.quote },
        "name": { $0.name },
        "hasName": { $0.hasName },
        "price": { $0.price },
        "open": { $0.open },
        "high": { $0.high },
        "low": { $0.low },
        "bid": { $0.bid },
        "ask": { $0.ask },
        "change": { $0.change },
        "changeClass": { $0.changeClass },
        "arrow": { $0.arrow },
        "spread": { $0.spread },
        "spreadPct": { $0.spreadPct },
        "volume": { $0.volume },
        "volumeValue": { $0.volumeValue },
        "fxRate": { $0.fxRate },
        "updatedAt": { $0.updatedAt },
        "stale": { $0.stale },
        "hasCrossCheck": { $0.hasCrossCheck },
        "crossCheck": { $0.crossCheck },
        "hasLimit": { $0.hasLimit },
        "limitTitle": { $0.limitTitle },
        "sincePrevious": { $0.sincePrevious },
        "change7d": { $0.change7d },
        "change30d": { $0.change30d },
        "sincePreviousClass": { $0.sincePreviousClass },
        "change7dClass": { $0.change7dClass },
        "change30dClass": { $0.change30dClass },
        "sparkline": { $0.sparkline },
        "sparklineSVG": { $0.sparklineSVG },
        "sortValues": { $0.sortValues },
        "anchor": { $0.anchor },
        "alt": { $0.alt },
        "inTable": { $0.inTable },
    ]

    func child(named name: String) -> Any? { Self.keys[name]?(self) }
}

/// The report itself answers too: a row section's `{{#hasHistory}}` falls through to it, and
/// `Mirror` over the whole view model, its arrays of rows included, cost that once per row.
extension ReportViewModel: MustacheParent {
    /// By the name's hash, as a row's (`MarketLine`): it is asked for every `{{t.…}}` of every row.
    private static let keys: [String: @Sendable (ReportViewModel) -> Any] = [
        "title": { $0.title },
        "currency": { $0.currency },
        "locale": { $0.locale },
        "dataDate": { $0.dataDate },
        "generatedAt": { $0.generatedAt },
        "newestTickerAt": { $0.newestTickerAt },
        "ecbDate": { $0.ecbDate },
        "rates": { $0.rates },
        "counts": { $0.counts },
        "breadth": { $0.breadth },
        "hasInrPremium": { $0.hasInrPremium },
        "inrPremium": { $0.inrPremium },
        "inrPremiumClass": { $0.inrPremiumClass },
        "inrPremiumDetail": { $0.inrPremiumDetail },
        "gainers": { $0.gainers },
        "losers": { $0.losers },
        "topVolume": { $0.topVolume },
        "widestSpreads": { $0.widestSpreads },
        "hasGainers": { $0.hasGainers },
        "hasLosers": { $0.hasLosers },
        "hasTopVolume": { $0.hasTopVolume },
        "hasWidestSpreads": { $0.hasWidestSpreads },
        "hasMovers": { $0.hasMovers },
        "rows": { $0.rows },
        "hasRows": { $0.hasRows },
        "warnings": { $0.warnings },
        "hasWarnings": { $0.hasWarnings },
        "warningCount": { $0.warningCount },
        "sources": { $0.sources },
        "notices": { $0.notices },
        "hasNotices": { $0.hasNotices },
        "tickersStatus": { $0.tickersStatus },
        "ratesStatus": { $0.ratesStatus },
        "hasHistory": { $0.hasHistory },
        "alerts": { $0.alerts },
        "hasAlerts": { $0.hasAlerts },
        "holdings": { $0.holdings },
        "hasHoldings": { $0.hasHoldings },
        "holdingsTotal": { $0.holdingsTotal },
        "holdingsChange": { $0.holdingsChange },
        "hasHoldingsChange": { $0.hasHoldingsChange },
        "holdingsChanges": { $0.holdingsChanges },
        "holdingsDays": { $0.holdingsDays },
        "holdingsValues": { $0.holdingsValues },
        "hasHoldingsChart": { $0.hasHoldingsChart },
        "holdingsAnchor": { $0.holdingsAnchor },
        "firstAlerts": { $0.firstAlerts },
        "moreAlerts": { $0.moreAlerts },
        "hasMoreAlerts": { $0.hasMoreAlerts },
        "moreAlertsLabel": { $0.moreAlertsLabel },
        "charts": { $0.charts },
        "hasCharts": { $0.hasCharts },
        "hasSincePrevious": { $0.hasSincePrevious },
        "hasChange7d": { $0.hasChange7d },
        "hasChange30d": { $0.hasChange30d },
        "hasSparklines": { $0.hasSparklines },
        "hasTrends": { $0.hasTrends },
        "trendDays": { $0.trendDays },
        "trendHeading": { $0.trendHeading },
        "volumeFloor": { $0.volumeFloor },
        "belowVolumeFloor": { $0.belowVolumeFloor },
        "hasBelowVolumeFloor": { $0.hasBelowVolumeFloor },
        "details": { $0.details },
        "hasDetails": { $0.hasDetails },
        "detailData": { $0.makeDetailData() },
        "detailNoChart": { $0.detailNoChart },
        // The built-in page's plumbing (`lazyDetails`); a template's model never has it set.
        "detailMaker": { $0.detailMaker as Any },
        "alternativeRowIndex": { $0.alternativeRowIndex },
        "historyData": { $0.historyData },
        "hasHistoryData": { $0.hasHistoryData },
        "views": { $0.views },
        "isSwitchable": { $0.isSwitchable },
        "viewIndex": { $0.viewIndex },
        "currencyChoices": { $0.currencyChoices },
        "currencyCodes": { $0.currencyCodes },
        "alternative": { $0.alternative },
        "converterData": { $0.converterData },
        "comparedAnchors": { $0.comparedAnchors },
        "comparisonLabel": { $0.comparisonLabel },
        "hasComparison": { $0.hasComparison },
        "comparisonTitle": { $0.comparisonTitle },
        "comparisonGap": { $0.comparisonGap as Any },
        "comparisonNote": { $0.comparisonNote },
        "hasComparisonNote": { $0.hasComparisonNote },
        "compared": { $0.compared },
        "hasConverter": { $0.hasConverter },
        "t": { $0.t },
        "lang": { $0.lang },
        "scriptStrings": { $0.scriptStrings },
        "said": { $0.said },
        "dataTime": { $0.dataTime },
        "dataMaxAge": { $0.dataMaxAge },
        "hasChartsNote": { $0.hasChartsNote },
        "pageStyle": { $0.pageStyle },
        "pageScript": { $0.pageScript },
    ]

    func child(named name: String) -> Any? { Self.keys[name]?(self) }
}

/// A detail answers as a row does: some thirty keys for each of the table's markets.
extension ReportViewModel.Detail: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "anchor": anchor
        case "symbol": symbol
        case "pair": pair
        case "quote": quote
        case "base": base
        case "name": self.name
        case "hasName": hasName
        case "noChart": noChart
        case "price": price
        case "open": open
        case "high": high
        case "low": low
        case "bid": bid
        case "ask": ask
        case "change": change
        case "changeClass": changeClass
        case "arrow": arrow
        case "changeMoney": changeMoney
        case "spread": spread
        case "spreadPct": spreadPct
        case "volume": volume
        case "volumeValue": volumeValue
        case "fxRate": fxRate
        case "updatedAt": updatedAt
        case "hasRate": hasRate
        case "others": others
        case "hasOthers": hasOthers
        case "hasSeries": hasSeries
        case "limits": limits
        case "hasLimits": hasLimits
        case "currency": currency
        case "alt": alt
        default: nil
        }
    }
}

extension ReportViewModel.Detail.Other: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "pair": pair
        case "symbol": symbol
        case "anchor": anchor
        case "price": price
        case "premium": premium
        case "premiumClass": premiumClass
        case "isShown": isShown
        case "alt": alt
        default: nil
        }
    }
}

extension ReportViewModel.Text: MustacheParent {
    func child(named name: String) -> Any? { name == "text" ? text : nil }
}

extension ReportViewModel.Counts: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "tickers": tickers
        case "converted": converted
        case "selected": selected
        case "shown": shown
        case "assets": assets
        case "skipped": skipped
        case "unconvertible": unconvertible
        case "assetsPhrase": assetsPhrase
        default: nil
        }
    }
}

extension ReportViewModel.Breadth: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "advancers": advancers
        case "decliners": decliners
        case "unchanged": unchanged
        case "advancersWeight": advancersWeight
        case "declinersWeight": declinersWeight
        case "unchangedWeight": unchangedWeight
        default: nil
        }
    }
}

extension ReportViewModel.Source: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        // `self`: the argument is called `name` too.
        case "name": self.name
        case "url": url
        case "fetchedAt": fetchedAt
        case "status": status
        case "isLink": isLink
        default: nil
        }
    }
}

extension ReportViewModel.Chart: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "pair": pair
        case "anchor": anchor
        case "price": price
        case "span": span
        case "change30d": change30d
        case "changeClass": changeClass
        case "dated": dated
        case "label": label
        case "svg": svg
        default: nil
        }
    }
}

extension ReportViewModel.Said: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "generated": generated
        case "newestTicker": newestTicker
        case "ecbRates": ecbRates
        case "tickersConverted": tickersConverted
        case "skipped": skipped
        case "unconvertible": unconvertible
        case "ecbReferenceRates": ecbReferenceRates
        case "topVolume": topVolume
        case "volumeFloor": volumeFloor
        case "method": method
        case "disclaimer": disclaimer
        case "pulse": pulse
        default: nil
        }
    }
}

extension ReportViewModel.Compared: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "change": change
        case "changeClass": changeClass
        case "index": index
        default: nil
        }
    }
}

extension ReportViewModel.CurrencyChoice: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "code": code
        case "index": index
        case "isFirst": isFirst
        default: nil
        }
    }
}
