import Foundation

/// How one setting's value is read: the same rules for a flag, an environment variable and the
/// configuration file, so that a value is parsed once, where it enters, and never again.
package struct SettingRule<Value: Sendable>: Sendable {
    /// What a valid value looks like: "a positive number of seconds, up to 86400".
    package let expected: String
    package let kind: SettingKind
    /// The items given (one, except for lists). Throws `InvalidSettingValue`; untyped, because a
    /// typed-throwing closure type crashes Swift 6.3's SIL generation.
    let parse: @Sendable ([String]) throws -> Value

    /// A list whose items may hold commas themselves (URLs): a flag or a variable gives one
    /// item, and the flag is repeated for more.
    var whole = false

    /// From a flag or an environment variable: a list's items separated by commas.
    package func text(_ string: String) throws(InvalidSettingValue) -> Value {
        try items(kind == .strings && !whole ? SettingKind.listItems(string) : [string.trimmingCharacters(in: .whitespaces)])
    }

    func items(_ items: [String]) throws(InvalidSettingValue) -> Value {
        do {
            return try parse(items)
        } catch {
            throw error as? InvalidSettingValue ?? InvalidSettingValue("\(error)")
        }
    }

    var erased: SettingRule<any Sendable> {
        var erased = SettingRule<any Sendable>(expected: expected, kind: kind) { try parse($0) }
        erased.whole = whole
        return erased
    }

    /// The same rule, its flag's or variable's text one item however many commas it holds.
    var unsplit: SettingRule {
        var rule = self
        rule.whole = true
        return rule
    }

    static func one(_ expected: String, _ kind: SettingKind = .string, _ make: @escaping @Sendable (String) -> Value?) -> SettingRule {
        SettingRule(expected: expected, kind: kind) { items in
            let text = items.first ?? ""
            guard let value = make(text.trimmingCharacters(in: .whitespaces)) else { throw InvalidSettingValue.value(text, expected: expected) }
            return value
        }
    }

    /// A list, each item read by `item`; at least one unless `allowingEmpty`, none twice if
    /// `distinct`, at most `most` (`tooMany` says why). An error names its item, so that the
    /// file can name its line.
    static func list<Item: Equatable>(
        _ expected: String, allowingEmpty: Bool = false, distinct: Bool = false, most: Int = .max, tooMany: String = "",
        _ item: @escaping @Sendable (String) throws -> Item?
    ) -> SettingRule where Value == [Item] {
        SettingRule(expected: expected, kind: .strings) { items in
            guard allowingEmpty || !items.isEmpty else { throw InvalidSettingValue("the list is empty; expected \(expected)") }
            let values = try items.map { text in
                do {
                    guard let value = try item(text) else { throw InvalidSettingValue.value(text, expected: expected) }
                    return value
                } catch {
                    throw InvalidSettingValue((error as? InvalidSettingValue)?.message ?? "\(error)", item: text)
                }
            }
            if distinct, let twice = values.indices.first(where: { index in values.filter { $0 == values[index] }.count > 1 }) {
                throw InvalidSettingValue("\(values[twice]) is given twice", item: items[twice])
            }
            guard values.count <= most else { throw InvalidSettingValue("\(tooMany), not \(values.count)", item: items.joined(separator: ",")) }
            return values
        }
    }
}

/// What the file must hold; the file's value is then read like a flag's text.
package enum SettingKind: String, Sendable {
    case string = "a string", whole = "a whole number", number = "a number", boolean = "true or false"
    /// An array of strings, or one string, comma-separated as in a flag or the environment.
    case strings = "an array of strings"

    /// `btc, eth` → `btc`, `eth`: a list as one text, the same from a flag, a variable and the
    /// file (`symbols = "btc,eth"` was one symbol named "btc,eth" there).
    static func listItems(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

// MARK: - The rules the settings use

extension SettingRule where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of a fixed set of names, in any case.
    static var choice: SettingRule {
        let names = Value.allCases.map(\.rawValue)
        return one(names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")) { Value(rawValue: $0.lowercased()) }
    }
}

enum Rules {
    /// Anything but empty, which would silently mean the current folder.
    static let path = SettingRule<String>.one("a path, in which ~ and $HOME are the only variables") {
        $0.isEmpty || hasVariable($0) ? nil : home($0)
    }

    /// A path ending in `/` names a folder: SQLite made a file of the folder's name instead.
    static let databaseFile = SettingRule<String>.one("a file path such as history.sqlite, in which ~ and $HOME are the only variables") {
        $0.isEmpty || $0.hasSuffix("/") || hasVariable($0) ? nil : home($0)
    }

    /// `~/…`, `$HOME/…` and `${HOME}/…` under `$HOME`: no shell expands a file's or a quoted
    /// value's, SQLite does not either, and Foundation's URLs, which expand `~`, take the
    /// account's home whatever `$HOME` says. `$HOME/reports` in the file made a folder named
    /// `$HOME` in the current one, with exit 0.
    static func home(_ path: String) -> String {
        let rest: Substring
        if path == "~" || path.hasPrefix("~/") {
            rest = path.dropFirst()
        } else if let variable = ["${HOME}", "$HOME"].first(where: { path == $0 || path.hasPrefix($0 + "/") }) {
            rest = path.dropFirst(variable.count)
        } else {
            return path
        }
        return (ProcessInfo.processInfo.environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + rest
    }

    /// A variable no shell expanded, other than a leading `$HOME` (`$XDG_DATA_HOME/…`,
    /// `/srv/${USER}`), or another account's home (`~root/…`, which Foundation would expand):
    /// refused, not taken as a folder's name.
    static func hasVariable(_ path: String) -> Bool {
        if path.hasPrefix("~") && path != "~" && !path.hasPrefix("~/") { return true }
        let rest = home(path) == path ? Substring(path) : path.drop(while: { $0 != "/" })
        var previous: Character?
        for character in rest {
            if previous == "$", character == "{" || character == "_" || character.isLetter { return true }
            previous = character
        }
        return false
    }

    static let boolean = SettingRule<Bool>.one("true or false", .boolean) {
        ["true": true, "yes": true, "1": true, "false": false, "no": false, "0": false][$0.lowercased()]
    }

    static func whole(_ range: ClosedRange<Int>, expected: String) -> SettingRule<Int> {
        .one(expected, .whole) { Int($0).flatMap { range.contains($0) ? $0 : nil } }
    }

    static let positive = whole(1...Int.max, expected: "a positive whole number")

    /// Seconds, fractions allowed, up to a day: beyond that a cron run has hung, and far larger
    /// values overflow the clock.
    static func seconds(allowingZero: Bool = false) -> SettingRule<Duration> {
        .one(allowingZero ? "zero or more seconds, up to 86400" : "a positive number of seconds, up to 86400", .number) { text in
            guard let seconds = Double(text), seconds.isFinite, seconds <= 86400, allowingZero ? seconds >= 0 : seconds > 0 else { return nil }
            // Kept in whole milliseconds: a positive value below half of one (`1e-9`) would be none.
            let milliseconds = (seconds * 1000).rounded()
            return allowingZero || milliseconds > 0 ? .milliseconds(milliseconds) : nil
        }
    }

    /// Money, zero or more, with `.` for the fraction (`5000`, `2500.50`), read exactly from its
    /// text (a file's number through its shortest text), as money always is.
    static let amount = SettingRule<Decimal>.one("an amount of zero or more, like 5000 or 2500.50", .number) { text in
        let digits = text.replacingOccurrences(of: "_", with: "")
        return digits.wholeMatch(of: /[0-9]+(\.[0-9]+)?/) == nil ? nil : Decimal(string: digits, locale: Locale(identifier: "en_US_POSIX"))
    }

    static let currencies = SettingRule<[CurrencyCode]>.list(
        "one or two three-letter currency codes such as SEK or SEK,USD", distinct: true, most: 2, tooMany: "a report shows one or two currencies"
    ) { CurrencyCode($0) }

    static let timeZone = SettingRule<TimeZone>.one("a time zone such as Europe/Stockholm, America/New_York or UTC") { text in
        text.isEmpty ? nil : TimeZone(identifier: text) ?? (["UTC", "GMT", "Z"].contains(text.uppercased()) ? TimeZone(identifier: "UTC") : nil)
    }

    static let locale = SettingRule<ReportLocale>.one("a locale identifier such as en_US or sv_SE") { ReportLocale($0) }

    /// Empty is refused: an unset `$OUTDIR` in a crontab would scatter reports wherever cron starts.
    static let destination = SettingRule<OutputSpec.Destination>.one("a folder, in which ~ and $HOME are the only variables, or - for standard output") {
        $0 == "-" ? .standardOutput : $0.isEmpty || hasVariable($0) ? nil : .directory(home($0))
    }

    static func location(_ source: DataSource) -> SettingRule<SourceLocation> {
        .one("an http(s) URL, a file:// URL or a path") { try? SourceLocation(parsing: home($0), source: source) }
    }

    /// `csv,html`, `all`, `md`: distinct, in report order.
    static let formats: SettingRule<[ReportFormat]> = {
        let names = SettingRule<[[ReportFormat]]>.list("csv, markdown, html, json, ledger, beancount or all") { ReportFormat.parse($0) }
        return SettingRule(expected: names.expected, kind: .strings) { Array(Set(try names.parse($0).joined())).sorted() }
    }()

    /// `--source wazirx,binance`: a fallback order, each exchange once.
    static let sources = SettingRule<[Exchange]>.list(
        Exchange.allCases.map(\.rawValue).dropLast().joined(separator: ", ") + " or " + (Exchange.allCases.last?.rawValue ?? ""), distinct: true
    ) { Exchange(rawValue: $0.lowercased()) }

    /// `binance=https://…`, `wazirx=saved/tickers.json`: the URL part as `--tickers-url` reads it.
    static let sourceURLs = SettingRule<[SourceOverride]>.list(
        "NAME=URL, NAME being " + SourceOverride.names.map(\.key).joined(separator: ", ") + "; the URL an http(s) URL, a file:// URL or a path"
    ) { text in
        let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let feed = SourceOverride.names.first(where: { $0.key == parts[0].lowercased() })?.value else { return nil }
        guard let location = try? SourceLocation(parsing: home(parts[1]), source: feed) else { return nil }
        return SourceOverride(feed: feed, location: location)
    }

    /// `btc=0.5`, `eth=2@3000 USDT`: each asset once.
    static let holdings: SettingRule<[Holding]> = {
        let items = SettingRule<[Holding]>.list(
            "ASSET=AMOUNT, like btc=0.5, or with what was paid, btc=0.5@150000 SEK (an amount of zero or more; the cost's currency an ECB one or USDT)"
        ) { Holding(parsing: $0) }
        return SettingRule(expected: items.expected, kind: .strings) { texts in
            let holdings = try items.parse(texts)
            for (index, holding) in holdings.enumerated() where holdings[..<index].contains(where: { $0.asset == holding.asset }) {
                throw InvalidSettingValue("\(holding.asset) is given twice; give each asset once", item: texts[index])
            }
            return holdings
        }
    }()

    /// `https://ntfy.sh/topic`: a webhook, never another scheme.
    static let webhooks = SettingRule<[URL]>.list("http(s) URLs such as https://ntfy.sh/my-alerts") { text in
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            return nil
        }
        return url
    }

    static let linkBase = SettingRule<String>.one("an http(s) URL where the report folder is published") { text in
        let lowered = text.lowercased()
        return (lowered.hasPrefix("http://") || lowered.hasPrefix("https://")) && URL(string: text)?.host != nil ? text : nil
    }

    static let command = SettingRule<String>.one("a shell command") { $0.isEmpty ? nil : $0 }

    /// `2%`, `0.5 %`, `2`: a percentage above zero, up to 100.
    static let percent = SettingRule<Decimal>.one("a percentage above 0 and up to 100, like 2% or 0.5", .number) { text in
        let digits = text.hasSuffix("%") ? String(text.dropLast()).trimmingCharacters(in: .whitespaces) : text
        guard digits.wholeMatch(of: /[0-9]+(\.[0-9]+)?/) != nil, let value = Decimal(string: digits, locale: Locale(identifier: "en_US_POSIX")),
            value > 0, value <= 100
        else { return nil }
        return value
    }

    /// `usdt,usdc`: assets named as the exchanges name them, letters and digits.
    static let stablecoins = SettingRule<[String]>.list("asset names such as usdt,usdc,busd", distinct: true) { text in
        let name = text.lowercased()
        return !name.isEmpty && name.count <= 20 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } ? name : nil
    }

    static let symbols = SettingRule<[String]>.list("base assets or market symbols, like btc,eth,wrxinr", allowingEmpty: true) { $0.lowercased() }

    /// One to five (the comparison chart has five colours).
    static let compare = SettingRule<[String]>.list(
        "one to five base assets or market symbols, like btc,eth,sol", most: 5, tooMany: "the comparison follows at most five markets"
    ) {
        $0.lowercased()
    }

    static let maxAge = SettingRule<[MaxAge.Limit]>.list("a duration with its unit (s, m, h or d) like 24h or 5d, optionally as tickers=… or rates=…") {
        MaxAge.Limit($0)
    }

    static let alerts = SettingRule<[AlertRule]>.list("rules like \"btc above 60000 SEK\" or \"any move 10 %\"", allowingEmpty: true) {
        try AlertRule(parsing: $0)
    }
}
