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
    func child(named name: String) -> Any? {
        switch name {
        case "symbol": symbol
        case "pair": pair
        case "base": base
        case "quote": quote
        // `self`: the argument is called `name` too.
        case "name": self.name
        case "hasName": hasName
        case "price": price
        case "open": open
        case "high": high
        case "low": low
        case "bid": bid
        case "ask": ask
        case "change": change
        case "changeClass": changeClass
        case "arrow": arrow
        case "spread": spread
        case "spreadPct": spreadPct
        case "volume": volume
        case "volumeValue": volumeValue
        case "fxRate": fxRate
        case "updatedAt": updatedAt
        case "stale": stale
        case "hasCrossCheck": hasCrossCheck
        case "crossCheck": crossCheck
        case "hasLimit": hasLimit
        case "limitTitle": limitTitle
        case "sincePrevious": sincePrevious
        case "change7d": change7d
        case "change30d": change30d
        case "sincePreviousClass": sincePreviousClass
        case "change7dClass": change7dClass
        case "change30dClass": change30dClass
        case "sparkline": sparkline
        case "sparklineSVG": sparklineSVG
        case "sortValues": sortValues
        case "anchor": anchor
        case "alt": alt
        case "inTable": inTable
        default: nil
        }
    }
}

/// The report itself answers too: a row section's `{{#hasHistory}}` falls through to it, and
/// `Mirror` over the whole view model, its arrays of rows included, cost that once per row.
extension ReportViewModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "currency": currency
        case "locale": locale
        case "dataDate": dataDate
        case "generatedAt": generatedAt
        case "newestTickerAt": newestTickerAt
        case "ecbDate": ecbDate
        case "rates": rates
        case "counts": counts
        case "breadth": breadth
        case "hasInrPremium": hasInrPremium
        case "inrPremium": inrPremium
        case "inrPremiumClass": inrPremiumClass
        case "inrPremiumDetail": inrPremiumDetail
        case "gainers": gainers
        case "losers": losers
        case "topVolume": topVolume
        case "widestSpreads": widestSpreads
        case "hasGainers": hasGainers
        case "hasLosers": hasLosers
        case "hasTopVolume": hasTopVolume
        case "hasWidestSpreads": hasWidestSpreads
        case "hasMovers": hasMovers
        case "rows": rows
        case "hasRows": hasRows
        case "warnings": warnings
        case "hasWarnings": hasWarnings
        case "warningCount": warningCount
        case "sources": sources
        case "notices": notices
        case "hasNotices": hasNotices
        case "tickersStatus": tickersStatus
        case "ratesStatus": ratesStatus
        case "hasHistory": hasHistory
        case "alerts": alerts
        case "hasAlerts": hasAlerts
        case "holdings": holdings
        case "hasHoldings": hasHoldings
        case "holdingsTotal": holdingsTotal
        case "holdingsChange": holdingsChange
        case "hasHoldingsChange": hasHoldingsChange
        case "holdingsChanges": holdingsChanges
        case "holdingsDays": holdingsDays
        case "holdingsValues": holdingsValues
        case "hasHoldingsChart": hasHoldingsChart
        case "holdingsAnchor": holdingsAnchor
        case "firstAlerts": firstAlerts
        case "moreAlerts": moreAlerts
        case "hasMoreAlerts": hasMoreAlerts
        case "moreAlertsLabel": moreAlertsLabel
        case "charts": charts
        case "hasCharts": hasCharts
        case "hasSincePrevious": hasSincePrevious
        case "hasChange7d": hasChange7d
        case "hasChange30d": hasChange30d
        case "hasSparklines": hasSparklines
        case "hasTrends": hasTrends
        case "trendDays": trendDays
        case "trendHeading": trendHeading
        case "volumeFloor": volumeFloor
        case "belowVolumeFloor": belowVolumeFloor
        case "hasBelowVolumeFloor": hasBelowVolumeFloor
        case "details": details
        case "hasDetails": hasDetails
        case "detailData": makeDetailData()
        case "detailNoChart": detailNoChart
        // The built-in page's plumbing (`lazyDetails`); a template's model never has it set.
        case "detailMaker": detailMaker as Any
        case "alternativeRowIndex": alternativeRowIndex
        case "historyData": historyData
        case "hasHistoryData": hasHistoryData
        case "views": views
        case "isSwitchable": isSwitchable
        case "viewIndex": viewIndex
        case "currencyChoices": currencyChoices
        case "currencyCodes": currencyCodes
        case "alternative": alternative
        case "converterData": converterData
        case "comparison": comparison
        case "hasComparison": hasComparison
        case "comparisonTitle": comparisonTitle
        case "comparisonGap": comparisonGap as Any
        case "comparisonNote": comparisonNote
        case "hasComparisonNote": hasComparisonNote
        case "compared": compared
        case "hasConverter": hasConverter
        case "t": t
        case "lang": lang
        case "scriptStrings": scriptStrings
        case "said": said
        case "dataTime": dataTime
        case "dataMaxAge": dataMaxAge
        case "hasChartsNote": hasChartsNote
        case "pageStyle": pageStyle
        case "pageScript": pageScript
        default: nil
        }
    }
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
