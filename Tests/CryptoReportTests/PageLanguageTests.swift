import Foundation
import Testing

@testable import CryptoReport

/// Issue 9 item 8: the HTML page (and index.html) in the reader's language: Swedish for a
/// Swedish locale, English otherwise; Markdown, CSV and JSON unchanged.
@Suite("The page in the reader's language")
struct PageLanguageTests {
    static func sample(_ currency: CurrencyCode, locale: String? = nil) throws -> Report {
        var spec = ReportSpec(currency: currency)
        spec.locale = locale.flatMap(ReportLocale.init)
        return try ReportBuilder(spec: spec, ratesAgeLimit: nil, generatedAt: Fixtures.reportTime).build(
            tickers: Fixtures.payload(.tickers, try Fixtures.tickers), rates: Fixtures.payload(.rates, try Fixtures.rates))
    }

    // MARK: - The string table

    @Test("the Swedish and English tables have every key, no empty text, and the same placeholders")
    func tablesAgree() throws {
        let english = PageStrings.englishTable, swedish = PageStrings.swedishTable
        #expect(Set(english.keys) == Set(PageStrings.Key.allCases))
        #expect(Set(swedish.keys) == Set(PageStrings.Key.allCases))
        for key in PageStrings.Key.allCases {
            let en = try #require(english[key]), sv = try #require(swedish[key])
            #expect(!en.trimmingCharacters(in: .whitespaces).isEmpty, "\(key) is empty in English")
            #expect(!sv.trimmingCharacters(in: .whitespaces).isEmpty, "\(key) is empty in Swedish")
            #expect(PageStrings.placeholders(in: en) == PageStrings.placeholders(in: sv), "\(key): {n} differ")
        }
    }

    @Test("each key reads its own text in both languages: a key's position among all keys is its ordinal")
    func textsByPosition() {
        for (position, key) in PageStrings.Key.allCases.enumerated() {
            #expect(key.ordinal == position, "\(key)")
            #expect(PageStrings(.english)[key] == PageStrings.englishTable[key], "\(key)")
            #expect(PageStrings(.swedish)[key] == PageStrings.swedishTable[key], "\(key)")
        }
    }

    @Test("the language follows the locale's language: sv_SE and sv_FI Swedish, the rest English")
    func languageOfLocale() {
        #expect(PageStrings.Language(localeIdentifier: "sv_SE") == .swedish)
        #expect(PageStrings.Language(localeIdentifier: "sv-FI") == .swedish)
        #expect(PageStrings.Language(localeIdentifier: "sv") == .swedish)
        #expect(PageStrings.Language(localeIdentifier: "en_US") == .english)
        #expect(PageStrings.Language(localeIdentifier: "nb_NO") == .english)
        #expect(PageStrings.Language(localeIdentifier: "") == .english)
    }

    @Test("placeholders are filled in one pass: a value holding {1} stays as it is")
    func formatOnePass() {
        let strings = PageStrings(.english)
        #expect(strings.format(.tickersConverted, "{1}", "450") == "{1} of 450 tickers converted")
        #expect(strings.format(.title, "SEK") == "Crypto prices in SEK, {1}", "a value missing leaves its placeholder")
        #expect(PageStrings(.swedish).format(.title, "SEK", "2022-11-22") == "Kryptopriser i SEK, 2022-11-22")
    }

    @Test("the script's words are JSON the page can read")
    func scriptJSON() throws {
        let json = PageStrings(.swedish).scriptJSON
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        #expect(object?["scriptShownOf"] == "{0} av {1} marknader")
        #expect(object?["scriptSortBy"] == "Sortera efter {0}")
    }

    // MARK: - The page

    @Test("a SEK page is Swedish: lang, headings, column headers, detail, script words, footer")
    func swedishPage() throws {
        let html = try TemplateRenderer().render(try Self.sample("SEK"), format: .html)
        #expect(html.contains("<html lang=\"sv\">"))
        for text in [
            "<title>Kryptopriser i SEK, 2022-11-22</title>", "<h2>Alla marknader</h2>", "placeholder=\"Sök: btc, eth, inr…\"",
            ">Pris</th>", "<span data-k=\"h\">Högst</span>", "<span class=\"lo\" data-k=\"l\">Lägst</span>",
            "<span data-k=\"b\">Köpkurs</span>", "<span class=\"lo\" data-k=\"a\">Säljkurs</span>", ">Volymvärde</span>",
            "<h2>Största vinnare</h2>", "<h2>Största förlorare</h2>", "aria-label=\"Stäng\"", "<dt>Öppningspris (24 h)",
            "<h2>Källor</h2>", "Endast referensvärden, inte investeringsråd.", "Skapad 2022-11-22",
            "&quot;scriptShownOf&quot;:&quot;{0} av {1} marknader&quot;", "<h2>Omvandlare</h2>", "Ingen marknad matchar sökningen.",
            "450 av 450 noteringar omräknade",
        ] {
            #expect(html.contains(text), "missing: \(text)")
        }
        // No English heading or label left for a Swedish reader.
        for text in [
            "All markets", "Top gainers", "Top losers", "Widest spreads", "Rates used", "Search:", ">Price<", ">High<", ">Bid<",
            "aria-label=\"Close\"", "Reference figures only", "Generated ", "Newest ticker", "\" markets\"", "Sort by", "tickers omräknade",
        ] {
            #expect(!html.contains(text), "English left: \(text)")
        }
    }

    @Test("a USD page, and a SEK page with --locale en_US, are English")
    func englishPages() throws {
        let usd = try TemplateRenderer().render(try Self.sample("USD"), format: .html)
        #expect(usd.contains("<html lang=\"en\">"))
        #expect(usd.contains("<h2>All markets</h2>"))
        #expect(!usd.contains("Alla marknader"))
        let sekInEnglish = try TemplateRenderer().render(try Self.sample("SEK", locale: "en_US"), format: .html)
        #expect(sekInEnglish.contains("<html lang=\"en\">"))
        #expect(sekInEnglish.contains("<title>Crypto prices in SEK, 2022-11-22</title>"))
        let usdInSwedish = try TemplateRenderer().render(try Self.sample("USD", locale: "sv_SE"), format: .html)
        #expect(usdInSwedish.contains("<html lang=\"sv\">"))
        #expect(usdInSwedish.contains("<h2>Alla marknader</h2>"))
    }

    @Test("two currencies: the page speaks the first currency's language, both views alike")
    func twoCurrencies() throws {
        let sek = try Self.sample("SEK"), usd = try Self.sample("USD")
        let swedish = try TemplateRenderer().render(sek, format: .html, alternatives: [usd])
        #expect(swedish.contains("<html lang=\"sv\">"))
        #expect(swedish.contains("data-alt=\"Kryptopriser i USD, 2022-11-22\""), "the USD title is Swedish too")
        #expect(swedish.contains("Alla priser är omräknade till USD."), "the USD footer is Swedish")
        #expect(!swedish.contains("All prices are converted"))
        #expect(swedish.contains("aria-label=\"Valuta\""))
        let english = try TemplateRenderer().render(usd, format: .html, alternatives: [sek])
        #expect(english.contains("<html lang=\"en\">"))
        #expect(english.contains("data-alt=\"Crypto prices in SEK, 2022-11-22\""))
        #expect(!english.contains("Alla marknader"))
    }

    @Test("Markdown stays English whatever the locale")
    func markdownEnglish() throws {
        let markdown = try TemplateRenderer().render(try Self.sample("SEK"), format: .markdown)
        #expect(markdown.contains("Crypto prices in SEK, 2022-11-22"))
        #expect(!markdown.contains("Kryptopriser"))
    }

    @Test("a run's Markdown from its Swedish page model, reworded in English, is the English model's Markdown")
    func wordedMarkdown() throws {
        var sek = try Self.sample("SEK")
        sek.notices = [.staleMarkets(count: 2), .cachedSource(.rates, fetchedAt: Fixtures.captureTime, liveError: "down")]
        let page = ReportViewModel(sek)
        #expect(page.t.language == .swedish)
        let worded = page.worded(.english, report: sek)
        #expect(MarkdownTemplateTests.markdown(worded) == MarkdownTemplateTests.markdown(ReportViewModel(sek, strings: .english)))
        #expect(worded.title == "Crypto prices in SEK, 2022-11-22" && page.title == "Kryptopriser i SEK, 2022-11-22")
        #expect(worded.views.first?.title == worded.title)
    }

    @Test("notices and alerts on the page are Swedish; the log's wording stays English")
    func noticesAndAlerts() {
        let notice = Notice.staleMarkets(count: 3)
        #expect(
            NoticeText.text(notice, time: ReportDates.minute, strings: PageStrings(.swedish))
                == "3 marknader har inte uppdaterats på över en timme; de är märkta som inaktuella.")
        #expect(NoticeText.text(notice) == "3 markets have not updated for over an hour; they are marked stale.")
        #expect(AlertText.text(.day, strings: PageStrings(.swedish)) == "på 24 h")
        #expect(AlertText.text(.sinceLastReport) == "since the last report")
    }

    /// The script dates a chart's axis from these (Tests/Browser: an American page's axes).
    @Test("a Swedish chart's axis names months in Swedish; American English writes the month first")
    func swedishMonths() {
        #expect(PageStrings(.swedish).months[4] == "maj" && PageStrings(.english).months[4] == "May")
        // American English writes the month first; British English and Swedish the day.
        #expect(["en_US", "en-US", "en_US.UTF-8", "en_CA", "en_PH"].allSatisfy(PriceChart.writesMonthFirst))
        #expect(!["en_GB", "en_IN", "sv_SE", "sv_FI", "de_DE", "en"].contains(where: PriceChart.writesMonthFirst))
    }

    @Test("index.html follows the same rule")
    func index() throws {
        let sek = try Self.sample("SEK")
        let names = [ReportFileName(date: "2022-11-22", currency: "SEK", kind: .report(.html))]
        let swedish = IndexRenderer().render(reports: names, latest: ["cryptoreport-latest-SEK-alerts.csv"], report: sek)
        #expect(swedish.contains("<a href=\"cryptoreport-latest-SEK-alerts.csv\">larm</a>"), "the latest alerts link in Swedish")
        #expect(swedish.contains("<html lang=\"sv\">"))
        for text in ["<title>Kryptoprisrapporter</title>", "1 rapport", ">Datum</th>", ">Filer</th>", "Nyast först"] {
            #expect(swedish.contains(text), "missing: \(text)")
        }
        #expect(!swedish.contains("Newest first"))
        let english = IndexRenderer().render(reports: names, latest: [], report: try Self.sample("USD"))
        #expect(english.contains("<html lang=\"en\">"))
        #expect(english.contains("<title>Crypto price reports</title>"))
        #expect(english.contains("1 report"))
    }
}
