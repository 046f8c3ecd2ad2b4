import Foundation
import TOMLKit

#if canImport(Glibc)
    import Glibc
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    import Darwin
    private let systemRead = Darwin.read
#endif

/// Reads the configuration file, TOML, into a layer of settings.
///
/// Any valid TOML reads (TOMLKit, on toml++). We add the strictness users benefit from: an
/// unknown key, a table (every key sits at the top level) or a value of the wrong kind is an
/// error naming its line, so that a typo never silently changes a report.
package struct ConfigFileReader: Sendable {
    package init() {}

    package static func defaultPath(environment: [String: String]) -> String {
        let xdg = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        return (xdg ?? (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config") + "/cryptoreport/config.toml"
    }

    /// `pipeTimeLimit`: milliseconds a pipe's configuration may take to arrive.
    package func read(path: String, pipeTimeLimit: Int32 = Self.pipeTimeLimit) throws(SettingsError) -> SettingsLayer {
        // Opened, then read to its end: `/dev/null` and a shell's `<(…)` are configurations too,
        // which `FileManager.contents(atPath:)` refused, and the refusal can name its cause.
        // Opened without waiting (a FIFO no one writes to would block the open for ever), and a
        // pipe read within `pipeTimeLimit`.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw .unreadableFile(path: path, reason: errno == ENOENT ? "no such file" : String(cString: strerror(errno)).lowercased())
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadableFile(path: path, reason: "reading it failed") }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFDIR {
            throw .unreadableFile(path: path, reason: "it is a folder")
        }
        let data: Data
        if kind != S_IFREG {
            // A pipe, a socket or a device (`/dev/null`; `/dev/zero` would never end): read as a
            // pipe is, bounded in time and size.
            data = try Self.readPipe(descriptor, path: path, limit: pipeTimeLimit)
        } else if status.st_size > Self.sizeLimit {
            throw .unreadableFile(path: path, reason: "it is larger than 1 MB")
        } else {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            do {
                data = try handle.readToEnd() ?? Data()
            } catch {
                throw .unreadableFile(path: path, reason: "reading it failed")
            }
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .file(path: path, line: nil, message: "not UTF-8 text") }
        return try parse(text, path: path)
    }

    /// How long a configuration from a pipe may take to arrive, in milliseconds, all of it.
    package static let pipeTimeLimit: Int32 = 10_000
    /// The largest configuration read: a real one is a few hundred bytes.
    static let sizeLimit = 1 << 20

    /// A pipe's bytes to its end, each wait for more bounded by `pipeTimeLimit` milliseconds.
    private static func readPipe(_ descriptor: Int32, path: String, limit: Int32) throws(SettingsError) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        // One deadline for the whole read: a writer sending a byte now and then cannot stretch it.
        let end = ContinuousClock.now + .milliseconds(limit)
        while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = ContinuousClock.now.duration(to: end) / .milliseconds(1)
            let ready = poll(&poller, 1, Int32(max(0, left.rounded(.up))))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else {
                throw .unreadableFile(
                    path: path, reason: "nothing came from it within \(FetchError.format(Double(limit) / 1000)) s (a FIFO no program writes to?)")
            }
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            guard count >= 0 else { throw .unreadableFile(path: path, reason: "reading it failed") }
            if count == 0 { return data }
            data.append(contentsOf: buffer[..<count])
            guard data.count <= sizeLimit else { throw .unreadableFile(path: path, reason: "it is larger than 1 MB") }
        }
    }

    package func parse(_ text: String, path: String) throws(SettingsError) -> SettingsLayer {
        // toml++ reads a C string, so text after a NUL byte was silently ignored; TOML allows none.
        if let nul = text.utf8.firstIndex(of: 0) {
            let line = text.utf8[..<nul].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            throw .file(path: path, line: line, message: "not valid TOML: a NUL byte; a configuration file is text")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .file(path: path, line: error.source.begin.line, message: Self.sentence(error.description))
        } catch {
            throw .file(path: path, line: nil, message: "not TOML")
        }
        let names = SettingsLayer.keys.map(\.name)
        for name in table.keys.sorted() where !names.contains(name) {
            let message =
                table[name]?.table != nil
                ? "[\(name)]: sections are not used; put every key at the top level"
                : EnvironmentReader.nearest(name, among: names).map { "unknown key \"\(name)\" (did you mean \"\($0)\"?)" }
                    ?? "unknown key \"\(name)\"; known: \(names.joined(separator: ", "))"
            throw .file(path: path, line: Self.line(of: name, in: text), message: message)
        }
        var layer = SettingsLayer()
        for key in SettingsLayer.keys {
            guard let value = table[key.name] else { continue }
            do {
                // One alert rule as one string, as `--alert` takes it: a rule may hold a comma
                // (`btc above 60,000 SEK`), which its own message explains.
                let items = try Self.items(value, kind: key.rule.kind, expected: key.rule.expected, splitting: key.name != "alerts" && !key.rule.whole)
                layer.values[key.name] = try key.rule.items(items)
            } catch {
                throw .file(path: path, line: Self.line(of: key.name, item: error.item, in: text), message: "\(key.name): \(error.message)")
            }
        }
        return layer
    }

    /// The file's value as the items a flag's text gives, once TOML's type is what the key takes.
    static func items(
        _ value: any TOMLValueConvertible, kind: SettingKind, expected: String, splitting: Bool = true
    ) throws(InvalidSettingValue) -> [String] {
        switch (kind, value.type) {
        case (.string, .string): return [value.string ?? ""]
        case (.strings, .string): return splitting ? SettingKind.listItems(value.string ?? "") : [value.string ?? ""]
        case (.whole, .int), (.number, .int): return [String(value.int ?? 0)]
        case (.number, .double): return [String(value.double ?? 0)]
        // A percentage as the flag writes it and the default is shown: `cross_check_tolerance = "2%"`.
        case (.number, .string) where value.string?.hasSuffix("%") == true: return [value.string ?? ""]
        case (.boolean, .bool): return [String(value.bool ?? false)]
        case (.strings, .table):
            // `source_urls = { binance = "https://…" }`, `[holdings]` with `btc = "0.5"` or
            // `btc = { amount = "0.5", cost = "150000 SEK" }`: each entry as the flag's NAME=VALUE
            // (a cost after `@`). Amounts are strings: a TOML float is not exact.
            return try (value.table.map { table in table.keys.sorted().map { ($0, table[$0]) } } ?? []).map { entry throws(InvalidSettingValue) in
                if let text = entry.1?.string { return "\(entry.0)=\(text)" }
                if let inner = entry.1?.table, let amount = inner["amount"]?.string, inner.keys.allSatisfy({ $0 == "amount" || $0 == "cost" }) {
                    guard let cost = inner["cost"] else { return "\(entry.0)=\(amount)" }
                    guard let text = cost.string else { throw InvalidSettingValue("\(entry.0): cost is a string such as \"150000 SEK\"") }
                    return "\(entry.0)=\(amount)@\(text)"
                }
                throw InvalidSettingValue("\(entry.0): expected a string such as \"0.5\" (or a table with amount and cost as strings)")
            }
        case (.strings, .array):
            return try (value.array.map(Array.init) ?? []).map { item throws(InvalidSettingValue) in
                guard let text = item.string else { throw InvalidSettingValue("expected \(kind.rawValue), not \(typeName(item))") }
                return text
            }
        default: throw InvalidSettingValue("expected \(expected), not \(typeName(value))")
        }
    }

    static func typeName(_ value: any TOMLValueConvertible) -> String {
        let names: [TOMLType: String] = [
            .string: "a string", .int: "a whole number", .double: "a number with a fraction", .bool: "true or false", .array: "an array", .table: "a table",
        ]
        return names[value.type] ?? "a date or time"
    }

    /// toml++'s "Error while parsing value: could not determine value type." as "not valid TOML
    /// (value): could not determine value type", with a hint for its likeliest cause; the error
    /// adds the final period.
    static func sentence(_ message: String) -> String {
        var text = message.trimmingCharacters(in: .whitespacesAndNewlines).replacing(#/\.+$/#, with: "")
        text = text.replacing(#/^Error while parsing ([^:]*): /#) { "not valid TOML (\($0.1)): " }
        return text.hasSuffix("could not determine value type") ? text + "; text needs quotes, as in currency = \"SEK\"" : text
    }

    /// The line a top-level key (or an item of its array) is written on. TOMLKit gives a position
    /// for a syntax error only, so the line is found in the text: a valid document sets each
    /// top-level key once, on a line that starts with the key (bare or quoted) and `=`, or `[key]`.
    static func line(of key: String, item: String? = nil, in text: String) -> Int? {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let name = NSRegularExpression.escapedPattern(for: key)
        guard let pattern = try? Regex(#"^[ \t]*(\#(name)|"\#(name)"|'\#(name)')[ \t]*=|^\s*\[\#(name)\]"#),
            let start = lines.firstIndex(where: { $0.contains(pattern) })
        else { return nil }
        guard let item else { return start + 1 }
        return (lines[start...].firstIndex { $0.contains("\"\(item)\"") || $0.contains("'\(item)'") } ?? start) + 1
    }
}
