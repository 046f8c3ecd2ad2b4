import Mustache

/// Each value of `index.html`'s model answers its template's lookups itself, as the report's
/// view model does (`ReportViewModel+Lookup`): without reflection. A test checks that every
/// stored property answers here under its own name.
extension IndexRenderer.ViewModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "generatedAt": generatedAt
        case "reportCount": reportCount
        case "locale": locale
        case "pageStyle": pageStyle
        case "t": t
        case "lang": lang
        case "generatedLine": generatedLine
        case "latestAlertsLine": latestAlertsLine
        case "breadthLine": breadthLine
        case "topGainersLine": topGainersLine
        case "topLosersLine": topLosersLine
        case "footer": footer
        case "summary": summary
        case "reports": reports
        case "hasReports": hasReports
        case "latest": latest
        case "hasLatest": hasLatest
        default: nil
        }
    }
}

extension IndexRenderer.Summary: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "dataDate": dataDate
        case "currency": currency
        case "alerts": alerts
        case "hasAlerts": hasAlerts
        case "firstAlerts": firstAlerts
        case "moreAlerts": moreAlerts
        case "hasMoreAlerts": hasMoreAlerts
        case "moreAlertsLabel": moreAlertsLabel
        case "alertsPage": alertsPage
        case "breadth": breadth
        case "hasInrPremium": hasInrPremium
        case "inrPremium": inrPremium
        case "inrPremiumClass": inrPremiumClass
        case "inrPremiumDetail": inrPremiumDetail
        case "gainers": gainers
        case "losers": losers
        case "hasGainers": hasGainers
        case "hasLosers": hasLosers
        default: nil
        }
    }
}

extension IndexRenderer.Mover: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "symbol": symbol
        case "pair": pair
        case "price": price
        case "change": change
        case "changeClass": changeClass
        case "arrow": arrow
        default: nil
        }
    }
}

extension IndexRenderer.Entry: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "date": date
        case "currency": currency
        case "files": files
        case "hasAlerts": hasAlerts
        case "alertsHref": alertsHref
        default: nil
        }
    }
}

extension IndexRenderer.Latest: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "currency": currency
        case "files": files
        default: nil
        }
    }
}

extension IndexRenderer.Link: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "href": href
        default: nil
        }
    }
}
