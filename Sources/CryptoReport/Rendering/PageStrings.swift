import Foundation
import Mustache

/// Every text for people in the HTML report and `index.html`, in the reader's language: Swedish
/// when the report's locale is Swedish (`sv_SE`, `sv_FI`, the SEK default), English otherwise.
///
/// The templates read a text as `{{t.key}}`; texts with figures in them (`{0}`, `{1}`) are put
/// together here and handed to the templates ready. Markdown, CSV and JSON keep English: they are
/// not pages. A table lacking a key falls back to English, never to nothing; a test holds both
/// tables to the same keys and placeholders.
package struct PageStrings: Sendable {
    package enum Language: String, Sendable, CaseIterable {
        case english = "en"
        case swedish = "sv"

        /// `sv_SE` → Swedish; any other locale → English.
        package init(localeIdentifier: String) {
            let language = localeIdentifier.split(whereSeparator: { $0 == "_" || $0 == "-" }).first.map { $0.lowercased() }
            self = language == "sv" ? .swedish : .english
        }
    }

    package let language: Language
    private let table: [Key: String]
    /// Each key's text (the English one where the table lacks it) at the key's position among
    /// `Key.allCases`: the page reads a text for every row and about twenty for every detail,
    /// and hashing a key for each was a fiftieth of writing 100,000 markets.
    private let texts: [String]

    package init(_ language: Language) {
        self.language = language
        let table = Self.tables[language] ?? Self.englishTable
        self.table = table
        texts = Key.allCases.map { table[$0] ?? Self.englishTable[$0] ?? "" }
    }

    package init(localeIdentifier: String) {
        self.init(Language(localeIdentifier: localeIdentifier))
    }

    package static let english = PageStrings(.english)

    /// `en` or `sv`, for `<html lang>`.
    package var code: String { language.rawValue }

    /// A locale as the page's reader names it: `svenska (Sverige)` for `sv_SE` on a Swedish page,
    /// `English (United States)` for `en_US`; the identifier itself where ICU has no name.
    package func localeName(_ identifier: String) -> String {
        Locale(identifier: code).localizedString(forIdentifier: identifier) ?? identifier
    }

    package subscript(_ key: Key) -> String {
        let ordinal = key.ordinal
        return ordinal < texts.count ? texts[ordinal] : table[key] ?? Self.englishTable[key] ?? ""
    }

    /// The text of `key` with `{0}` … `{9}` replaced by `values` in one pass: a value holding
    /// `{1}` (a rule, a fetch error) stays as it is.
    package func format(_ key: Key, _ values: String...) -> String {
        let template = Array(self[key].unicodeScalars)
        var text = String.UnicodeScalarView()
        var index = 0
        while index < template.count {
            if template[index] == "{", index + 2 < template.count, template[index + 2] == "}",
                let digit = Int(String(template[index + 1])), values.indices.contains(digit)
            {
                text.append(contentsOf: values[digit].unicodeScalars)
                index += 3
            } else {
                text.append(template[index])
                index += 1
            }
        }
        return String(text)
    }

    /// `Jan` … `Dec`, `jan` … `dec`: a chart's dated axis.
    package var months: [String] {
        [Key.month1, .month2, .month3, .month4, .month5, .month6, .month7, .month8, .month9, .month10, .month11, .month12].map { self[$0] }
    }

    /// The texts the page's script writes itself, as JSON for an HTML-escaped attribute.
    package var scriptJSON: String {
        let keys: [Key] = [
            .scriptShownOf, .scriptShown, .scriptSortBy, .scriptMostTraded, .scriptAllUnits, .scriptUpdated, .scriptDataOld, .scriptRange, .scriptRangeAll,
            .scriptSince, .change7d, .change30d,
        ]
        // The attribute is HTML-escaped; JSON's own escapes are the history data's.
        let entries = keys.map { key in "\"\(key.rawValue)\":" + ReportViewModel.jsonString(self[key]) }
        return "{" + entries.joined(separator: ",") + "}"
    }

    /// `{0}` … `{9}` in a text: what a table's two languages must agree on.
    package static func placeholders(in text: String) -> Set<String> {
        Set((0...9).map { "{\($0)}" }.filter { text.contains($0) })
    }

    static let tables: [Language: [Key: String]] = [.english: englishTable, .swedish: swedishTable]
}

extension PageStrings.Key {
    /// The key's position among `allCases`. A case without a payload is stored as its index in
    /// the order the cases are declared, the order `allCases` lists them, in one byte while there
    /// are at most 256 (`PageStringsTests` checks every key); past that, `Int.max`, which sends
    /// `PageStrings`' subscript to its table.
    var ordinal: Int {
        guard MemoryLayout<Self>.size == 1 else { return .max }
        return Int(withUnsafeBytes(of: self) { $0[0] })
    }
}

/// `{{t.close}}` in a template: the text of the key named, or nothing for a name no key has.
extension PageStrings: MustacheParent {
    package func child(named name: String) -> Any? {
        Key(rawValue: name).map { self[$0] }
    }
}
