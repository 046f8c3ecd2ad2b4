import Foundation

/// The one wording of fired alerts and of rules that could not be checked: the reports, the
/// alerts file and the command's `cryptoreport: alert: …` lines.
package enum AlertText {
    /// `btc above 60000 SEK: BTC/USDT is at 171 447,35 kr`; a move in `localeIdentifier` (the
    /// report's), a price in its own currency's usual locale, as the rule names that currency.
    package static func message(_ alert: FiredAlert, localeIdentifier: String) -> String {
        var formatters = Formatters(localeIdentifier: localeIdentifier)
        return message(alert, formatters: &formatters)
    }

    package static func message(_ alert: FiredAlert, in report: Report) -> String {
        message(alert, localeIdentifier: report.localeIdentifier)
    }

    /// Every alert of the report, in order; one formatter per currency, not per alert, since
    /// thousands of rules may fire.
    /// - Parameters:
    ///   - strings: the HTML page's language; English for the other reports, the alerts file
    ///     and the log. The rule is quoted as the user wrote it.
    ///   - inReportLocale: a price limit's figure in the report's number style, as the page and
    ///     the Markdown write every other figure ("ligger på 15 988,00 US$" on a Swedish page,
    ///     which read "$15,988.00", fifteen dollars to a Swede); else in its currency's own.
    package static func messages(_ report: Report, strings: PageStrings = .english, inReportLocale: Bool = false) -> [String] {
        var formatters = Formatters(localeIdentifier: report.localeIdentifier)
        return report.alerts.map { message($0, formatters: &formatters, strings: strings, inReportLocale: inReportLocale) }
    }

    static func message(_ alert: FiredAlert, formatters: inout Formatters, strings: PageStrings = .english, inReportLocale: Bool = false) -> String {
        let pair = alert.rule.watchesHoldings ? strings[.holdingsSubject] : "\(alert.baseAsset.uppercased())/\(alert.quoteAsset.uppercased())"
        switch alert.figure {
        case let .price(price, currency):
            let numbers = inReportLocale ? formatters.report(currency) : formatters.own(currency)
            return strings.format(.alertAt, alert.rule.description, pair, numbers.money(price))
        case let .change(change, period, price, currency):
            let numbers = formatters.report(currency)
            return strings.format(.alertMoved, alert.rule.description, pair, numbers.percent(change), text(period, strings: strings), numbers.money(price))
        }
    }

    struct Formatters {
        var localeIdentifier: String
        var byOwnLocale: [String: PeopleNumberFormatter] = [:]
        var inReportLocale: [String: PeopleNumberFormatter] = [:]

        mutating func own(_ currency: String) -> PeopleNumberFormatter {
            if let known = byOwnLocale[currency] { return known }
            let made = PeopleNumberFormatter(
                currency: currency, locale: Locale(identifier: PeopleNumberFormatter.defaultLocaleIdentifier(for: currency)))
            byOwnLocale[currency] = made
            return made
        }

        mutating func report(_ currency: String) -> PeopleNumberFormatter {
            if let known = inReportLocale[currency] { return known }
            let made = PeopleNumberFormatter(currency: currency, locale: Locale(identifier: localeIdentifier))
            inReportLocale[currency] = made
            return made
        }
    }

    package static func text(_ period: FiredAlert.Period, strings: PageStrings = .english) -> String {
        switch period {
        case .day: strings[.periodDay]
        case .sinceLastReport: strings[.periodSinceLast]
        }
    }

    /// Why a rule could not be checked, for the log.
    package static func note(_ note: AlertNote) -> String {
        let rule = "alert \"\(note.rule.description)\""
        switch note.reason {
        case let .currencyNotInRates(currency, ratesDate): return "\(rule): the ECB rates of \(ratesDate) have no \(currency)"
        case let .noMarket(asset): return "\(rule): no market for \(asset)"
        case let .notInReport(asset):
            return "\(rule): \(asset) is not among the report's markets, which move rules watch (--symbols, --markets, --top)"
        case .noHistory: return "\(rule): no history to compare with (--no-history or no earlier run)"
        case .noHoldings: return "\(rule): there are no holdings to watch (--holding, the configuration's [holdings])"
        case .noHoldingsChange: return "\(rule): a market of the holdings has no 24 h open price, so their 24 h change is unknown"
        }
    }
}
