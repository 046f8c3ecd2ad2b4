import Foundation

/// A field the configuration file, the environment and a flag can set. It names its key and the
/// rule its text is read by, so the model is the key table (`SettingsLayer.keys`).
///
/// Swift gives a property wrapper no key path to its field, so a layer cannot be written into the
/// settings afterwards: `Settings(layers:)` builds them while the layers are `merging`, and each
/// field reads its own key as it is initialised.
@propertyWrapper
public struct Setting<Value: Sendable & Equatable>: Sendable, Equatable {
    public var wrappedValue: Value
    package let key: SettingKey

    /// `merge` puts a layer's value in; `yieldsTo` names a key that, set (to anything but false)
    /// by a layer that does not set this one, puts this one back to its default: `--history`
    /// over a file's `no_history`, `-q` over a file's `verbose`.
    init<Input>(wrappedValue: Value, _ name: String, _ rule: SettingRule<Input>, yieldsTo: String? = nil, merge: (inout Value, Input) -> Void) {
        key = SettingKey(name: name, rule: rule.erased) { $0 as? Input }
        SettingsLayer.collecting?.append(key)
        var value = wrappedValue
        for layer in SettingsLayer.merging {
            if let given = layer.values[name] as? Input {
                merge(&value, given)
            } else if let other = yieldsTo.flatMap({ layer.values[$0] }), other as? Bool != false {
                value = wrappedValue
            }
        }
        self.wrappedValue = value
    }

    init(wrappedValue: Value, _ name: String, _ rule: SettingRule<Value>, yieldsTo: String? = nil) {
        self.init(wrappedValue: wrappedValue, name, rule, yieldsTo: yieldsTo) { $0 = $1 }
    }

    init<Input>(wrappedValue: Value, _ name: String, _ rule: SettingRule<Input>) where Value == Input? {
        self.init(wrappedValue: wrappedValue, name, rule) { $0 = $1 }
    }

    public static func == (a: Self, b: Self) -> Bool { a.wrappedValue == b.wrappedValue }
}

/// One setting: its name in the file (`lock_timeout`) and the environment
/// (`CRYPTOREPORT_LOCK_TIMEOUT`), and how its value is read.
package struct SettingKey: Sendable {
    package let name: String
    package let rule: SettingRule<any Sendable>
    /// A value from elsewhere (a flag as swift-argument-parser read it) if it is what the rule reads.
    package let value: @Sendable (Any) -> (any Sendable)?

    package var environmentVariable: String { EnvironmentReader.prefix + name.uppercased() }

    /// A flag's text read by key `name`'s rule, for swift-argument-parser's `transform:`.
    package static func flag<Value>(_ name: String) -> @Sendable (String) throws -> Value {
        { text in
            do throws(InvalidSettingValue) {
                guard let value = try SettingsLayer.key(name)?.rule.text(text) as? Value else { throw InvalidSettingValue("no setting \(name) of \(Value.self)") }
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

    /// The layers `Settings(layers:)` is building from, lowest first.
    @TaskLocal static var merging: [SettingsLayer] = []

    /// Every key, in the order the model declares them: each `@Setting` field of `Settings`, as
    /// `Settings()` initialises it. Not read by `Mirror`: its casts scan every protocol
    /// conformance in the binary, a few per cent of a small report's time.
    package static let keys: [SettingKey] = {
        let keys = KeyCollector()
        $collecting.withValue(keys) { _ = Settings() }
        return keys.keys
    }()

    @TaskLocal static var collecting: KeyCollector?

    package static func key(_ name: String) -> SettingKey? { keys.first { $0.name == name } }
}

/// The keys met while `SettingsLayer.keys` initialises the settings, on that one thread.
final class KeyCollector: @unchecked Sendable {
    private(set) var keys: [SettingKey] = []

    func append(_ key: SettingKey) { keys.append(key) }
}
