import Foundation

/// One setting: its name in the file (`lock_timeout`) and the environment
/// (`CRYPTOREPORT_LOCK_TIMEOUT`), how its value is read, and where it goes in `Settings`.
package struct SettingKey<Value: Sendable>: AnySettingKey {
    package let name: String
    package let parser: SettingParser<Value>
    let put: @Sendable (inout Settings, Value) -> Void

    init(_ name: String, _ parser: SettingParser<Value>, put: @escaping @Sendable (inout Settings, Value) -> Void) {
        (self.name, self.parser, self.put) = (name, parser, put)
    }

    package var expected: String { parser.expected }

    /// This key set to `value`, for a layer.
    package func assignment(_ value: Value) -> SettingsLayer.Assignment {
        let put = put
        return SettingsLayer.Assignment(key: name) { put(&$0, value) }
    }

    /// A flag's value, as the command line parsed it; `nil` when it is not this key's type.
    package func assignment(any value: Any) -> SettingsLayer.Assignment? { (value as? Value).map(assignment) }

    package func read(text: String) throws(InvalidSettingValue) -> SettingsLayer.Assignment { assignment(try parser.text(text)) }

    package func read(file value: FileValue) throws(InvalidSettingValue) -> SettingsLayer.Assignment { assignment(try parser.file(value)) }

    /// A flag's text, read by the key's rules; for swift-argument-parser's `transform:`, which
    /// quotes the value itself (an item of a list it does not).
    package func flag(_ text: String) throws -> Value {
        do {
            return try parser.text(text)
        } catch {
            guard let item = error.item else { throw FlagValueError(description: "expected \(parser.expected)") }
            // The item is worth quoting only when it is not the whole value the parser quotes already.
            let quoted = "\"\(item)\" is not valid; "
            let whole = item.trimmingCharacters(in: .whitespaces) == text.trimmingCharacters(in: .whitespaces)
            throw FlagValueError(description: whole && error.message.hasPrefix(quoted) ? String(error.message.dropFirst(quoted.count)) : error.message)
        }
    }
}

/// Why a flag's value was refused; swift-argument-parser puts it after the flag's name.
package struct FlagValueError: Error, CustomStringConvertible {
    package var description: String
}

/// A key whatever its value's type: the file and the environment read keys by name.
package protocol AnySettingKey: Sendable {
    var name: String { get }
    var expected: String { get }
    func assignment(any value: Any) -> SettingsLayer.Assignment?
    func read(text: String) throws(InvalidSettingValue) -> SettingsLayer.Assignment
    func read(file value: FileValue) throws(InvalidSettingValue) -> SettingsLayer.Assignment
}

extension AnySettingKey {
    package var environmentVariable: String { "CRYPTOREPORT_" + name.uppercased() }
}

/// The settings one source gave (the file, the environment or the flags), already parsed, in
/// order: applied over the layers below, a later value over an earlier one.
package struct SettingsLayer: Sendable {
    package struct Assignment: Sendable {
        package let key: String
        let apply: @Sendable (inout Settings) -> Void
    }

    package private(set) var assignments: [Assignment] = []

    package init() {}

    package mutating func append(_ assignment: Assignment) { assignments.append(assignment) }

    /// Sets `key` when the flag (or other source) gave a value.
    package mutating func set<Value>(_ key: SettingKey<Value>, _ value: Value?) {
        if let value { assignments.append(key.assignment(value)) }
    }

    func apply(to settings: inout Settings) {
        for assignment in assignments { assignment.apply(&settings) }
    }
}

extension SettingKey where Value == [AlertRule] {
    /// One `--alert`, whole: a rule's text may hold a comma, which the list's reading would split.
    package func rule(_ text: String) throws -> AlertRule {
        do {
            return try AlertRule(parsing: text)
        } catch {
            throw FlagValueError(description: error.message)
        }
    }
}
