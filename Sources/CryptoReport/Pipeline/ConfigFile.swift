import Foundation

/// The configuration file: defaults for the report flags and the alert rules.
///
/// The format is a small, strict subset of TOML: `key = value` lines, `#` comments, values that
/// are a "string", a number, `true`/`false`, or an array of strings (which may span lines). Each
/// report flag has its key, spelt with `_` for `-` (`--lock-timeout`: `lock_timeout`).
/// Anything else is an error naming the line, so a typo never silently changes a report.
public struct ConfigFile: Sendable, Equatable {
    public var currency: String?
    public var locale: String?
    public var formats: [String]?
    public var output: String?
    public var symbols: [String]?
    public var markets: String?
    public var sort: String?
    public var top: Int?
    public var history: String?
    public var failOnAlert: Bool?
    public var alerts: [AlertRule] = []
    public var tickersURL: String?
    public var ecbURL: String?
    public var timeout: Double?
    public var retries: Int?
    public var deadline: Double?
    public var maxBytes: Int?
    public var cacheDir: String?
    public var maxAge: [String]?
    public var strict: Bool?
    public var offline: Bool?
    public var allowStale: Bool?
    public var lockTimeout: Double?
    public var noHistory: Bool?
    public var templates: String?
    public var quiet: Bool?
    public var verbose: Bool?

    public init() {}

    static let keys = [
        "currency", "locale", "formats", "output", "symbols", "markets", "sort", "top", "history", "fail_on_alert", "alerts",
        "tickers_url", "ecb_url", "timeout", "retries", "deadline", "max_bytes", "cache_dir", "max_age", "strict", "offline",
        "allow_stale", "lock_timeout", "no_history", "templates", "quiet", "verbose",
    ]

    /// `$XDG_CONFIG_HOME/cryptoreport/config.toml`, else `~/.config/cryptoreport/config.toml`.
    public static func defaultPath(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return xdg + "/cryptoreport/config.toml"
        }
        return (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config/cryptoreport/config.toml"
    }

    public static func load(path: String) throws(ConfigError) -> ConfigFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path)
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .invalid(path: path, line: 1, message: "not UTF-8 text") }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws(ConfigError) -> ConfigFile {
        var config = ConfigFile()
        var seen = Set<String>()
        // Any line end: "\r\n" is one Character in Swift, which a split on "\n" would not see.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        var index = 0
        while index < lines.count {
            let number = index + 1
            // A file saved with CRLF line ends reads like any other.
            var line = stripComment(lines[index]).trimmingCharacters(in: .whitespacesAndNewlines)
            index += 1
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                throw .invalid(path: path, line: number, message: "sections are not used; put every key at the top level")
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw .invalid(path: path, line: number, message: "expected key = value")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard keys.contains(key) else {
                throw .invalid(path: path, line: number, message: "unknown key \"\(key)\"; known: \(keys.joined(separator: ", "))")
            }
            guard seen.insert(key).inserted else { throw .invalid(path: path, line: number, message: "\"\(key)\" is set twice") }
            // An array may continue over the following lines until its closing bracket.
            if line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces).hasPrefix("[") {
                while !closesArray(line), index < lines.count {
                    line += " " + stripComment(lines[index]).trimmingCharacters(in: .whitespacesAndNewlines)
                    index += 1
                }
            }
            let value = try Value.parse(String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces), path: path, line: number)
            // An array over several lines: a bad item is reported on its own line.
            let spanned = lines[(number - 1)..<index]
            let lineOf = { (item: String) -> Int in
                (spanned.firstIndex { $0.contains("\"\(item)\"") } ?? (number - 1)) + 1
            }
            try config.set(key, value, path: path, line: number, lineOf: lineOf)
        }
        return config
    }

    private mutating func set(_ key: String, _ value: Value, path: String, line: Int, lineOf: (String) -> Int) throws(ConfigError) {
        func string() throws(ConfigError) -> String {
            guard case let .string(text) = value else { throw .invalid(path: path, line: line, message: "\(key) must be a \"string\"") }
            return text
        }
        func strings() throws(ConfigError) -> [String] {
            guard case let .strings(list) = value else {
                throw .invalid(path: path, line: line, message: "\(key) must be an array of strings, like [\"a\", \"b\"]")
            }
            return list
        }
        func boolean() throws(ConfigError) -> Bool {
            guard case let .boolean(flag) = value else { throw .invalid(path: path, line: line, message: "\(key) must be true or false") }
            return flag
        }
        func seconds(allowingZero: Bool) throws(ConfigError) -> Double {
            let number: Double? =
                switch value {
                case let .integer(whole): Double(whole)
                case let .number(fraction): fraction
                default: nil
                }
            guard let number, number <= ReportRequest.longestWait, allowingZero ? number >= 0 : number > 0 else {
                throw .invalid(path: path, line: line, message: "\(key) must be a number of seconds, \(allowingZero ? "from 0" : "above 0") to 86400")
            }
            return number
        }
        // Every value is checked here, where the line is known, so that `apply` cannot fail.
        func check(_ valid: Bool, _ message: @autoclosure () -> String) throws(ConfigError) {
            if !valid { throw .invalid(path: path, line: line, message: message()) }
        }
        switch key {
        case "currency":
            let code = try string()
            try check(code.count == 3 && code.allSatisfy { $0.isASCII && $0.isLetter }, "currency \"\(code)\" is not a three-letter code such as USD or SEK")
            currency = code
        case "locale":
            let identifier = try string()
            try check(Locale.availableIdentifiers.contains(identifier.replacingOccurrences(of: "-", with: "_")), "locale \"\(identifier)\" is not a locale identifier such as en_US or sv_SE")
            locale = identifier
        case "formats":
            let names = try strings()
            try check(!names.isEmpty, "formats must name at least one of csv, markdown, html, json or all")
            for name in names {
                try check((try? ReportRequest.parseFormats([name])) != nil, "formats: \"\(name)\" is not csv, markdown, html, json or all")
            }
            formats = names
        case "output": output = try string()
        case "symbols": symbols = try strings()
        case "markets":
            let choice = try string()
            try check(Selection.Markets(rawValue: choice.lowercased()) != nil, "markets \"\(choice)\" is not primary or all")
            markets = choice
        case "sort":
            let choice = try string()
            try check(Selection.SortKey(rawValue: choice.lowercased()) != nil, "sort \"\(choice)\" is not change, volume, spread, name or price")
            sort = choice
        case "history": history = try string()
        case "top":
            guard case let .integer(number) = value, number > 0 else {
                throw .invalid(path: path, line: line, message: "top must be a positive whole number")
            }
            top = number
        case "fail_on_alert": failOnAlert = try boolean()
        case "tickers_url": tickersURL = try string()
        case "ecb_url": ecbURL = try string()
        case "cache_dir": cacheDir = try string()
        case "templates": templates = try string()
        case "timeout": timeout = try seconds(allowingZero: false)
        case "deadline": deadline = try seconds(allowingZero: false)
        case "lock_timeout": lockTimeout = try seconds(allowingZero: true)
        case "retries":
            guard case let .integer(number) = value, (0...10).contains(number) else {
                throw .invalid(path: path, line: line, message: "retries must be a whole number from 0 to 10")
            }
            retries = number
        case "max_bytes":
            guard case let .integer(number) = value, number > 0 else {
                throw .invalid(path: path, line: line, message: "max_bytes must be a positive whole number")
            }
            maxBytes = number
        case "max_age":
            let values = if case let .string(text) = value { [text] } else { try strings() }
            for text in values {
                var probe = MaxAge()
                try check((try? probe.apply(text)) != nil, "max_age \"\(text)\" is not a duration like 24h or 5d, optionally as tickers=… or rates=…")
            }
            maxAge = values
        case "strict": strict = try boolean()
        case "offline": offline = try boolean()
        case "allow_stale": allowStale = try boolean()
        case "no_history": noHistory = try boolean()
        case "quiet": quiet = try boolean()
        case "verbose": verbose = try boolean()
        default:
            for rule in try strings() {
                do {
                    alerts.append(try AlertRule(parsing: rule))
                } catch {
                    throw .invalid(path: path, line: lineOf(rule), message: error.message)
                }
            }
        }
    }

    enum Value: Equatable {
        case string(String)
        case strings([String])
        case integer(Int)
        /// A number with a fraction, for seconds: `2.5`.
        case number(Double)
        case boolean(Bool)

        static func parse(_ text: String, path: String, line: Int) throws(ConfigError) -> Value {
            if text == "true" { return .boolean(true) }
            if text == "false" { return .boolean(false) }
            if let number = Int(text) { return .integer(number) }
            if text.wholeMatch(of: /[0-9]+\.[0-9]+/) != nil, let number = Double(text) { return .number(number) }
            if text.hasPrefix("\"") {
                var rest = Substring(text)
                let value = try quoted(&rest, path: path, line: line)
                guard rest.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw .invalid(path: path, line: line, message: "unexpected text after the string")
                }
                return .string(value)
            }
            if text.hasPrefix("[") {
                var rest = Substring(text.dropFirst())
                var items: [String] = []
                while true {
                    rest = rest.drop { $0 == " " || $0 == "\t" }
                    if rest.hasPrefix("]") { break }
                    guard rest.hasPrefix("\"") else {
                        throw .invalid(path: path, line: line, message: "an array holds \"strings\" separated by commas, closed by ]")
                    }
                    items.append(try quoted(&rest, path: path, line: line))
                    rest = rest.drop { $0 == " " || $0 == "\t" }
                    if rest.hasPrefix(",") {
                        rest = rest.dropFirst()
                    } else if !rest.hasPrefix("]") {
                        throw .invalid(path: path, line: line, message: "an array holds \"strings\" separated by commas, closed by ]")
                    }
                }
                guard rest.dropFirst().trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw .invalid(path: path, line: line, message: "unexpected text after the array")
                }
                return .strings(items)
            }
            throw .invalid(path: path, line: line, message: "a value is a \"string\", a number, true, false or [\"an\", \"array\"]")
        }

        static func quoted(_ text: inout Substring, path: String, line: Int) throws(ConfigError) -> String {
            text = text.dropFirst()
            var value = ""
            while let character = text.first {
                text = text.dropFirst()
                switch character {
                case "\"": return value
                case "\\":
                    guard let escaped = text.first else { break }
                    text = text.dropFirst()
                    switch escaped {
                    case "n": value.append("\n")
                    case "t": value.append("\t")
                    case "\"", "\\": value.append(escaped)
                    default: throw .invalid(path: path, line: line, message: "unknown escape \\\(escaped)")
                    }
                default: value.append(character)
                }
            }
            throw .invalid(path: path, line: line, message: "a string is not closed")
        }
    }

    static func stripComment(_ line: String) -> String {
        var inString = false
        var previous: Character = " "
        for (offset, character) in line.enumerated() {
            if character == "\"" && previous != "\\" { inString.toggle() }
            if character == "#" && !inString { return String(line.prefix(offset)) }
            previous = character
        }
        return line
    }

    static func closesArray(_ line: String) -> Bool {
        var inString = false
        var previous: Character = " "
        var depth = 0
        for character in line {
            if character == "\"" && previous != "\\" { inString.toggle() }
            if !inString && character == "[" { depth += 1 }
            if !inString && character == "]" { depth -= 1 }
            previous = character
        }
        return depth <= 0
    }
}

/// A configuration file that cannot be used.
public enum ConfigError: LocalizedError, ExitStatusProviding, Equatable {
    case unreadable(path: String)
    case invalid(path: String, line: Int, message: String)

    public var errorDescription: String? {
        switch self {
        case let .unreadable(path): "Config: cannot read \(path)."
        case let .invalid(path, line, message): "Config: \(path), line \(line): \(message)."
        }
    }

    public var exitStatus: ExitStatus { .usage }
}

extension ConfigFile {
    /// Puts the settings given into `request`, over what it holds: the file's over the built-in
    /// defaults, then the flags' (the command builds a `ConfigFile` of them) over the file's.
    /// Every value was checked when it was read.
    public func apply(to request: inout ReportRequest) {
        if let currency { request.currency = currency }
        if let locale { request.locale = locale }
        if let formats, let parsed = try? ReportRequest.parseFormats(formats) { request.formats = parsed }
        if let output { request.destination = output == "-" ? .standardOutput : .directory(output) }
        if let symbols { request.selection.symbols = symbols.map { $0.lowercased() } }
        if let markets, let choice = Selection.Markets(rawValue: markets.lowercased()) { request.selection.markets = choice }
        if let sort, let key = Selection.SortKey(rawValue: sort.lowercased()) { request.selection.sort = key }
        if let top { request.selection.top = top }
        if let history { request.history = .path(history) }
        if let failOnAlert { request.failOnAlert = failOnAlert }
        if !alerts.isEmpty { request.alerts = alerts.map(\.description) }
        if let tickersURL { request.tickersLocation = tickersURL }
        if let ecbURL { request.ratesLocation = ecbURL }
        if let timeout { request.timeout = timeout }
        if let retries { request.retry.retries = retries }
        if let deadline { request.deadline = deadline }
        if let maxBytes { request.maximumBytes = maxBytes }
        if let cacheDir { request.cacheDirectory = cacheDir }
        for text in maxAge ?? [] { try? request.maxAge.apply(text) }
        if let strict { request.strict = strict }
        if let offline { request.offline = offline }
        if let allowStale { request.allowStale = allowStale }
        if let lockTimeout { request.lockTimeout = lockTimeout }
        if noHistory == true { request.history = .disabled }
        if let templates { request.templatesDirectory = templates }
    }
}
