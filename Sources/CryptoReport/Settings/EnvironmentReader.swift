/// Reads `CRYPTOREPORT_<KEY>` variables into a layer of settings: cron and containers set
/// environment, not files. Lists are comma-separated (`CRYPTOREPORT_FORMATS=html,csv`).
package struct EnvironmentReader: Sendable {
    package static let prefix = "CRYPTOREPORT_"

    package init() {}

    package func read(_ environment: [String: String]) throws(SettingsError) -> SettingsLayer {
        var layer = SettingsLayer()
        for key in SettingsLayer.keys {
            guard let text = environment[key.environmentVariable] else { continue }
            do {
                layer.values[key.name] = try key.rule.text(text)
            } catch {
                throw .environment(variable: key.environmentVariable, message: error.message)
            }
        }
        return layer
    }

    /// `CRYPTOREPORT_…` variables that name no setting: a misspelt one would otherwise be
    /// silently ignored, so the command warns of them.
    package func unknownVariables(in environment: [String: String]) -> [String] {
        let known = Set(SettingsLayer.keys.map(\.environmentVariable))
        return environment.keys.filter { $0.hasPrefix(Self.prefix) && !known.contains($0) }.sorted()
    }

    /// The known variable an unknown one most likely meant — `CRYPTOREPORT_FORMAT` for
    /// `CRYPTOREPORT_FORMATS` — when it is at most two letters away.
    package func suggestion(for variable: String) -> String? {
        Self.nearest(variable, among: SettingsLayer.keys.map(\.environmentVariable))
    }

    /// The name in `names` at most two letters away from `name`, the nearest first: the file's
    /// `format` for `formats`, as the environment's `CRYPTOREPORT_FORMAT`.
    static func nearest(_ name: String, among names: [String]) -> String? {
        names.map { ($0, distance(name, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    /// Edit distance (insertions, deletions, substitutions) between two short names.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
