/// Reads `CRYPTOREPORT_<KEY>` variables into a layer of settings: cron and containers set
/// environment, not files. Lists are comma-separated (`CRYPTOREPORT_FORMATS=html,csv`).
package struct EnvironmentReader: Sendable {
    package static let prefix = "CRYPTOREPORT_"

    /// Other spellings read for a setting's variable when it is not set: the singular
    /// `CRYPTOREPORT_SOURCE`, as one source is what most set, for `CRYPTOREPORT_SOURCES`.
    static let aliases = ["CRYPTOREPORT_SOURCES": "CRYPTOREPORT_SOURCE"]

    package init() {}

    package func read(_ environment: [String: String]) throws(SettingsError) -> SettingsLayer {
        var layer = SettingsLayer()
        for key in SettingsLayer.keys {
            let alias = Self.aliases[key.environmentVariable]
            guard
                let (variable, text) = environment[key.environmentVariable].map({ (key.environmentVariable, $0) })
                    ?? alias.flatMap({ alias in environment[alias].map { (alias, $0) } })
            else { continue }
            do {
                layer.values[key.name] = try key.rule.text(text)
            } catch {
                throw .environment(variable: variable, message: error.message)
            }
        }
        return layer
    }

    /// `CRYPTOREPORT_…` variables that name no setting, each with the one it likely meant: a
    /// misspelt one would otherwise be silently ignored, so the command warns of them.
    package func unknownVariables(in environment: [String: String]) -> [(variable: String, meant: String?)] {
        let known = SettingsLayer.keys.map(\.environmentVariable) + Self.aliases.values
        return environment.keys.filter { $0.hasPrefix(Self.prefix) && !known.contains($0) }.sorted().map { ($0, Self.nearest($0, among: known)) }
    }

    /// The name in `names` nearest to `name`, if at most two letters are inserted or removed (a
    /// changed letter is both): the file's `formats` for `format`, the environment's likewise.
    static func nearest(_ name: String, among names: [String]) -> String? {
        names.map { ($0, Array($0.utf8).difference(from: Array(name.utf8)).count) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }
}
