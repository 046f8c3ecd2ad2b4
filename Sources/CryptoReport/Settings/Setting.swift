import Foundation

/// One setting: its name in the file (`lock_timeout`) and the environment
/// (`CRYPTOREPORT_LOCK_TIMEOUT`), and how its value is read.
package struct SettingKey: Sendable {
    package let name: String
    package let rule: SettingRule<any Sendable>
    /// A value from elsewhere (a flag as swift-argument-parser read it) if it is what the rule reads.
    package let value: @Sendable (Any) -> (any Sendable)?
    /// Puts a layer's value (of the rule's type) into its field.
    let apply: @Sendable (inout Settings, any Sendable) -> Void
    /// Puts the field back to its default.
    let reset: @Sendable (inout Settings) -> Void
    /// A key that, set (to anything but false) by a layer that does not set this one, puts this
    /// one back to its default: `--history` over a file's `no_history`, `-q` over a file's `verbose`.
    let yieldsTo: String?

    /// `merge` puts a layer's value into the field (by default it replaces it).
    init<Input, Value>(
        _ name: String, _ rule: SettingRule<Input>, _ field: any WritableKeyPath<Settings, Value> & Sendable, yieldsTo: String? = nil,
        merge: @escaping @Sendable (inout Value, Input) -> Void
    ) {
        self.name = name
        self.rule = rule.erased
        self.value = { $0 as? Input }
        self.apply = { settings, given in
            if let given = given as? Input { merge(&settings[keyPath: field], given) }
        }
        self.reset = { settings in settings[keyPath: field] = Settings()[keyPath: field] }
        self.yieldsTo = yieldsTo
    }

    init<Value>(_ name: String, _ rule: SettingRule<Value>, _ field: any WritableKeyPath<Settings, Value> & Sendable, yieldsTo: String? = nil) {
        self.init(name, rule, field, yieldsTo: yieldsTo) { $0 = $1 }
    }

    init<Value>(_ name: String, _ rule: SettingRule<Value>, _ field: any WritableKeyPath<Settings, Value?> & Sendable) {
        self.init(name, rule, field) { $0 = $1 }
    }

    package var environmentVariable: String { EnvironmentReader.prefix + name.uppercased() }

    /// A flag's text read by key `name`'s rule, for swift-argument-parser's `transform:`.
    package static func flag<Value>(_ name: String) -> @Sendable (String) throws -> Value {
        { text in
            do throws(InvalidSettingValue) {
                guard let value = try SettingsLayer.key(name)?.rule.text(text) as? Value else {
                    throw InvalidSettingValue("no setting \(name) of \(Value.self)")
                }
                return value
            } catch {
                // The parser quotes the flag's value itself; our quote is worth keeping only for one item of several.
                let whole = error.item.map { $0.trimmingCharacters(in: .whitespaces) == text.trimmingCharacters(in: .whitespaces) } ?? true
                throw whole ? InvalidSettingValue(error.message.replacing(#/^".*" is not valid; /#, with: "")) : error
            }
        }
    }
}

/// The settings one source gave (the file, the environment or the flags), already parsed, by key.
package struct SettingsLayer: Sendable {
    package var values: [String: any Sendable] = [:]

    package init() {}

    /// Sets `name` when the source gave a value.
    package mutating func set(_ name: String, _ value: (any Sendable)?) {
        if let value { values[name] = value }
    }

    /// Every key, in the order of the options table: its name, its rule and the field it sets.
    package static let keys: [SettingKey] = [
        SettingKey("currency", Rules.currencies, \.report.currencies),
        SettingKey("locale", Rules.locale, \.report.locale),
        SettingKey("timezone", Rules.timeZone, \.report.timeZone),
        SettingKey("markets", .choice, \.report.selection.markets),
        SettingKey("symbols", Rules.symbols, \.report.selection.symbols),
        SettingKey("sort", .choice, \.report.selection.sort),
        SettingKey("top", Rules.positive, \.report.selection.top),
        SettingKey("alerts", Rules.alerts, \.report.alerts),
        SettingKey("holdings", Rules.holdings, \.report.holdings),
        SettingKey("compare", Rules.compare, \.report.compare),
        SettingKey("min_volume_value", Rules.amount, \.report.minimumVolumeValue),
        SettingKey("usd_stablecoins", Rules.stablecoins, \.report.stablecoins),
        SettingKey("sources", Rules.sources, \.fetch.sources),
        // A layer's list replaces the one below, as `--alert` replaces the file's alerts.
        SettingKey("source_urls", Rules.sourceURLs.unsplit, \.fetch.sourceURLs),
        SettingKey("cross_check", Rules.boolean, \.fetch.crossCheck),
        SettingKey("cross_check_tolerance", Rules.percent, \.report.crossCheckTolerance),
        SettingKey("tickers_url", Rules.location(.tickers), \.fetch.tickers),
        SettingKey("ecb_url", Rules.location(.rates), \.fetch.rates),
        SettingKey("sample", Rules.boolean, \.fetch.sample),
        SettingKey("timeout", Rules.seconds(), \.fetch.timeout),
        SettingKey("deadline", Rules.seconds(), \.fetch.deadline),
        SettingKey("retries", Rules.whole(0...10, expected: "a whole number from 0 to 10"), \.fetch.retry.retries),
        SettingKey("max_bytes", Rules.positive, \.fetch.maximumBytes),
        SettingKey("cache_dir", Rules.path, \.fetch.cacheDirectory),
        // Each limit over the one before: `tickers=12h` keeps the layer below's limit for rates.
        SettingKey("max_age", Rules.maxAge, \.fetch.maxAge) { maxAge, limits in for limit in limits { maxAge.apply(limit) } },
        SettingKey("strict", Rules.boolean, \.fetch.strict),
        SettingKey("offline", Rules.boolean, \.fetch.offline),
        SettingKey("allow_stale", Rules.boolean, \.fetch.allowStale),
        SettingKey("output", Rules.destination, \.output.destination),
        // Distinct, in `ReportFormat` order, however often a flag repeats them.
        SettingKey("formats", Rules.formats, \.output.formats) { formats, given in formats = Array(Set(given)).sorted() },
        SettingKey("csv_dialect", .choice, \.output.csvDialect),
        SettingKey("no_latest", Rules.boolean, \.output.latest) { latest, off in latest = !off },
        SettingKey("templates", Rules.path, \.output.templates),
        SettingKey("history", Rules.databaseFile, \.output.database),
        SettingKey("no_history", Rules.boolean, \.output.noHistory, yieldsTo: "history"),
        SettingKey("lock_timeout", Rules.seconds(allowingZero: true), \.output.lockTimeout),
        SettingKey("quiet", Rules.boolean, \.command.quietAsked),
        SettingKey("verbose", Rules.boolean, \.command.verbose, yieldsTo: "quiet"),
        SettingKey("fail_on_alert", Rules.boolean, \.command.failOnAlert),
        SettingKey("notify", Rules.webhooks.unsplit, \.notices.urls),
        SettingKey("notify_command", Rules.command, \.notices.command),
        SettingKey("notify_every_run", Rules.boolean, \.notices.everyRun),
        SettingKey("link_base", Rules.linkBase, \.notices.linkBase),
    ]

    package static func key(_ name: String) -> SettingKey? { keys.first { $0.name == name } }
}
