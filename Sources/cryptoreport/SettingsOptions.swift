import ArgumentParser
import CryptoReport
import Foundation

/// `--config` and `--no-config`, shared by every subcommand: each reads the same settings, the
/// defaults under the configuration file under the environment under its flags, once.
struct SettingsOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Configuration file (default: $XDG_CONFIG_HOME/cryptoreport/config.toml or ~/.config/cryptoreport/config.toml).",
            valueName: "path"),
        completion: .file(extensions: ["toml"]))
    var config: String?

    @Flag(name: .customLong("no-config"), help: "Ignore the configuration file (the CRYPTOREPORT_* environment still applies).")
    var noConfig = false

    func validate() throws {
        if noConfig && config != nil {
            throw ValidationError("--config names a file and --no-config ignores it; give one of them.")
        }
    }

    /// The settings with `flags` on top. Each layer is parsed where it is read, and a bad value
    /// is an error naming its file line, variable or flag.
    func settings(flags: SettingsLayer, environment: [String: String] = ProcessInfo.processInfo.environment) throws(SettingsError) -> Settings {
        // `--config PATH` must exist; the default file is optional.
        let standard = ConfigFileReader.defaultPath(environment: environment)
        let path = noConfig ? nil : config ?? (FileManager.default.fileExists(atPath: standard) ? standard : nil)
        let file = try path.map { path throws(SettingsError) in try ConfigFileReader().read(path: path) } ?? SettingsLayer()
        return Settings(layers: [file, try EnvironmentReader().read(environment), flags])
    }
}
