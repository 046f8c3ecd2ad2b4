/// Reads `CRYPTOREPORT_<KEY>` variables into a layer of settings: cron and containers set
/// environment, not files. Lists are comma-separated (`CRYPTOREPORT_FORMATS=html,csv`).
package struct EnvironmentReader: Sendable {
    package static let prefix = "CRYPTOREPORT_"

    package init() {}

    package func read(_ environment: [String: String]) throws(SettingsError) -> SettingsLayer {
        var layer = SettingsLayer()
        for key in SettingKeys.all {
            guard let text = environment[key.environmentVariable] else { continue }
            do {
                layer.append(try key.read(text: text))
            } catch {
                throw .environment(variable: key.environmentVariable, message: error.message)
            }
        }
        return layer
    }

    /// `CRYPTOREPORT_…` variables that name no setting: a misspelt one would otherwise be
    /// silently ignored, so the command warns of them.
    package func unknownVariables(in environment: [String: String]) -> [String] {
        let known = Set(SettingKeys.all.map(\.environmentVariable))
        return environment.keys.filter { $0.hasPrefix(Self.prefix) && !known.contains($0) }.sorted()
    }
}
