import ArgumentParser
import CryptoReport
import Foundation

/// Values the shell completes.
enum Completions {
    /// The currencies of the built-in sample's ECB file, and EUR; a test keeps the list equal to
    /// the sample's, which the script carries so that completing needs no run of the binary.
    static let currencies = [
        "AUD", "BGN", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "EUR", "GBP", "HKD", "HRK", "HUF", "IDR", "ILS", "INR",
        "ISK", "JPY", "KRW", "MXN", "MYR", "NOK", "NZD", "PHP", "PLN", "RON", "SEK", "SGD", "THB", "TRY", "USD", "ZAR",
    ]

    static let locales = ["en_US", "sv_SE", "en_GB", "en_IE", "en_IN", "de_DE", "fr_FR", "nb_NO", "da_DK", "fi_FI"]

    /// The built-in sample's base assets, asked of the binary when completing (too many for the
    /// script itself).
    static let assets = CompletionKind.custom { _, _, prefix in
        guard let decoded = try? TickerDecoder().decode(EmbeddedSample.tickers) else { return [] }
        return items(Set(decoded.tickers.map { $0.baseAsset.lowercased() }).sorted(), completing: prefix)
    }

    /// `--currency`'s, completed after a comma too (`SEK,U`), which a static list cannot.
    static let currencyList = CompletionKind.custom { _, _, prefix in items(currencies, completing: prefix) }

    /// `--format`'s values: the report's, or `history`'s after that subcommand. The bash script
    /// answers an option's values at the top level before it looks at the subcommand, so
    /// `history --format` would otherwise be offered html and ledger, which it refuses.
    static let formats = CompletionKind.custom { words, _, prefix in
        let names =
            words.dropFirst().first == "history"
            ? HistoryCommand.Format.allCases.map(\.rawValue)
            : ["csv", "markdown", "md", "html", "json", "ledger", "beancount", "all"]
        return items(names, completing: prefix)
    }

    /// The `names` that complete the word's last item, each with the items before it: the options
    /// take comma-separated lists (`csv,ht` gives `csv,html`), and the shell matches whole words.
    static func items(_ names: [String], completing word: String) -> [String] {
        let head = word.lastIndex(of: ",").map { String(word[...$0]) } ?? ""
        let item = word.dropFirst(head.count).lowercased()
        return names.filter { $0.lowercased().hasPrefix(item) }.map { head + $0 }
    }
}
