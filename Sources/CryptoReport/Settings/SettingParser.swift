import Foundation

/// A value as the configuration file typed it, apart from the TOML library that read it.
public enum FileValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    case array([FileValue])
    /// A table, a date or a time: no setting takes one.
    case other(typeName: String)

    var typeName: String {
        switch self {
        case .string: "a string"
        case .integer: "a whole number"
        case .float: "a number with a fraction"
        case .boolean: "true or false"
        case .array: "an array"
        case let .other(name): name
        }
    }
}

/// How one setting's value is read: the same rules for a flag, an environment variable and the
/// configuration file, so that a value is parsed once, where it enters, and never again.
public struct SettingParser<Value: Sendable>: Sendable {
    /// What a valid value looks like: "a positive number of seconds, up to 86400".
    public let expected: String
    // Untyped throws in the stored closures: typed-throwing closure types crash Swift 6.3's
    // SIL generation here. Every closure throws `InvalidSettingValue` only; `text(_:)` and
    // `file(_:)` say so in their types.
    private let readText: @Sendable (String) throws -> Value
    private let readFile: @Sendable (FileValue) throws -> Value

    init(
        expected: String, text: @escaping @Sendable (String) throws -> Value,
        file: (@Sendable (FileValue) throws -> Value)? = nil
    ) {
        self.expected = expected
        readText = text
        if let file {
            readFile = file
        } else {
            // Most settings are strings in the file, read by the same rules as a flag's text.
            readFile = { value in
                guard case let .string(string) = value else { throw InvalidSettingValue.wrongType(value, expected: expected) }
                return try text(string)
            }
        }
    }

    /// From a flag or an environment variable.
    func text(_ string: String) throws(InvalidSettingValue) -> Value {
        do {
            return try readText(string)
        } catch {
            throw Self.invalid(error)
        }
    }

    /// From the configuration file.
    func file(_ value: FileValue) throws(InvalidSettingValue) -> Value {
        do {
            return try readFile(value)
        } catch {
            throw Self.invalid(error)
        }
    }

    private static func invalid(_ error: any Error) -> InvalidSettingValue {
        error as? InvalidSettingValue ?? InvalidSettingValue("\(error)")
    }

    /// A string whose rules are a failable initialiser.
    static func checked(_ expected: String, _ make: @escaping @Sendable (String) -> Value?) -> SettingParser {
        SettingParser(expected: expected) { string in
            guard let value = make(string.trimmingCharacters(in: .whitespaces)) else { throw InvalidSettingValue.value(string, expected: expected) }
            return value
        }
    }
}

extension InvalidSettingValue {
    static func wrongType(_ value: FileValue, expected: String) -> InvalidSettingValue {
        InvalidSettingValue("expected \(expected), not \(value.typeName)")
    }
}

// MARK: - The parsers the settings use

extension SettingParser where Value == String {
    /// A path or a name: anything but empty, which would silently mean the current folder.
    static let path = checked("a path") { $0.isEmpty ? nil : $0 }
}

extension SettingParser where Value == Bool {
    static let boolean = SettingParser(
        expected: "true or false",
        text: { string in
            switch string.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: throw InvalidSettingValue.value(string, expected: "true or false")
            }
        },
        file: { value in
            guard case let .boolean(flag) = value else { throw InvalidSettingValue.wrongType(value, expected: "true or false") }
            return flag
        })
}

extension SettingParser where Value == Int {
    /// A whole number in `range`.
    static func whole(_ range: ClosedRange<Int>, expected: String) -> SettingParser {
        SettingParser(
            expected: expected,
            text: { string in
                guard let number = Int(string.trimmingCharacters(in: .whitespaces)), range.contains(number) else {
                    throw InvalidSettingValue.value(string, expected: expected)
                }
                return number
            },
            file: { value in
                guard case let .integer(number) = value else { throw InvalidSettingValue.wrongType(value, expected: expected) }
                guard range.contains(number) else { throw InvalidSettingValue.value(String(number), expected: expected) }
                return number
            })
    }

    static let positive = whole(1...Int.max, expected: "a positive whole number")
}

extension SettingParser where Value == Duration {
    /// The longest wait any setting accepts: beyond a day a cron run has hung, and far larger
    /// values overflow the clock.
    static let longestWait: Double = 86400

    /// Seconds, fractions allowed, up to a day.
    static func seconds(allowingZero: Bool) -> SettingParser {
        let expected = allowingZero ? "zero or more seconds, up to 86400" : "a positive number of seconds, up to 86400"
        @Sendable func checked(_ seconds: Double, _ written: String) throws(InvalidSettingValue) -> Duration {
            guard seconds.isFinite, seconds <= longestWait, allowingZero ? seconds >= 0 : seconds > 0 else {
                throw InvalidSettingValue.value(written, expected: expected)
            }
            return .milliseconds((seconds * 1000).rounded())
        }
        return SettingParser(
            expected: expected,
            text: { string in
                guard let seconds = Double(string.trimmingCharacters(in: .whitespaces)) else { throw InvalidSettingValue.value(string, expected: expected) }
                return try checked(seconds, string)
            },
            file: { value in
                switch value {
                case let .integer(whole): return try checked(Double(whole), String(whole))
                case let .float(fraction): return try checked(fraction, String(fraction))
                default: throw InvalidSettingValue.wrongType(value, expected: expected)
                }
            })
    }
}

extension SettingParser {
    /// One of a fixed set of names, in any case.
    static func choice(_ type: Value.Type) -> SettingParser
    where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
        let names = Value.allCases.map(\.rawValue)
        let expected = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
        return checked(expected) { Value(rawValue: $0.lowercased()) }
    }

    /// A list: comma-separated in a flag or the environment, an array of strings (or one
    /// string) in the file. Each item goes through `item`.
    static func list<Item>(
        of item: @escaping @Sendable (String) throws -> Item, expected: String,
        allowingEmpty: Bool = true
    ) -> SettingParser where Value == [Item] {
        @Sendable func items(_ strings: [String], written: String) throws(InvalidSettingValue) -> [Item] {
            var result: [Item] = []
            result.reserveCapacity(strings.count)
            for string in strings {
                do {
                    result.append(try item(string))
                } catch {
                    let message = (error as? InvalidSettingValue)?.message ?? "\(error)"
                    throw InvalidSettingValue(message.contains("\"\(string)\"") ? message : "\"\(string)\": \(message)", item: string)
                }
            }
            guard allowingEmpty || !result.isEmpty else { throw InvalidSettingValue.value(written, expected: expected) }
            return result
        }
        return SettingParser(
            expected: expected,
            text: { string in
                let parts = string.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                return try items(parts, written: string)
            },
            file: { value in
                switch value {
                case let .string(string): return try items([string], written: string)
                case let .array(values):
                    var strings: [String] = []
                    for value in values {
                        guard case let .string(string) = value else { throw InvalidSettingValue.wrongType(value, expected: "an array of strings") }
                        strings.append(string)
                    }
                    return try items(strings, written: "[]")
                default: throw InvalidSettingValue.wrongType(value, expected: "an array of strings, like [\"a\", \"b\"]")
                }
            })
    }
}

extension SettingParser where Value == CurrencyCode {
    static let currency = checked("a three-letter currency code such as USD or SEK") { CurrencyCode($0) }
}

extension SettingParser where Value == ReportLocale {
    static let locale = checked("a locale identifier such as en_US or sv_SE") { ReportLocale($0) }
}

extension SettingParser where Value == [ReportFormat] {
    /// `csv,html`, `all`, `md`: distinct, in report order.
    static let formats: SettingParser = {
        let expected = "csv, markdown, html, json, ledger, beancount or all"
        let list = SettingParser<[[ReportFormat]]>.list(
            of: { name in
                guard let formats = ReportFormat.parse(name) else { throw InvalidSettingValue.value(name, expected: expected) }
                return formats
            }, expected: expected, allowingEmpty: false)
        return SettingParser(
            expected: expected,
            text: { string in Array(Set(try list.text(string).joined())).sorted() },
            file: { value in Array(Set(try list.file(value).joined())).sorted() })
    }()
}

extension SettingParser where Value == [String] {
    /// Base assets or market symbols, lower case.
    static let symbols = list(of: { $0.lowercased() }, expected: "base assets or market symbols, like btc,eth,wrxinr")
}

extension SettingParser where Value == OutputSpec.Destination {
    /// An empty value is refused: an unset `$OUTDIR` in a crontab would scatter reports into
    /// whatever folder cron starts in.
    static let destination = checked("a folder, or - for standard output") { text in
        text == "-" ? .standardOutput : text.isEmpty ? nil : .directory(text)
    }
}

extension SettingParser where Value == SourceLocation {
    static func location(_ source: DataSource) -> SettingParser {
        checked("an http(s) URL, a file:// URL or a path") { try? SourceLocation(parsing: $0, source: source) }
    }
}

extension SettingParser where Value == [MaxAge.Limit] {
    static let maxAge = list(
        of: { text in
            guard let limit = MaxAge.Limit(text) else {
                throw InvalidSettingValue.value(text, expected: "a duration like 24h or 5d, optionally as tickers=… or rates=…")
            }
            return limit
        }, expected: "a duration like 24h or 5d, optionally as tickers=… or rates=…", allowingEmpty: false)
}

extension SettingParser where Value == [AlertRule] {
    static let alerts = list(
        of: { text in
            do {
                return try AlertRule(parsing: text)
            } catch let error as AlertRule.ParseError {
                throw InvalidSettingValue(error.message)
            }
        }, expected: "rules like \"btc above 60000 SEK\" or \"any move 10 %\"")
}
