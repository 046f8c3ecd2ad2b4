import ArgumentParser
import CryptoReport
import Foundation

/// `--config` and `--no-config`, shared by every subcommand, so that `history` and `backfill`
/// find the same database (`output`, `history`), currency and symbols as the reports do.
struct ConfigOptions: ParsableArguments {
    @Option(help: "Configuration file (default: $XDG_CONFIG_HOME/cryptoreport/config.toml or ~/.config/cryptoreport/config.toml).")
    var config: String?

    @Flag(name: .customLong("no-config"), help: "Ignore the configuration file.")
    var noConfig = false

    /// The built-in defaults with the configuration file's settings over them; flags go on top.
    func request() throws -> ReportRequest {
        var request = ReportRequest()
        try file()?.apply(to: &request)
        return request
    }

    /// The configuration file, if there is one to read; a bad one is a usage error naming its line.
    func file() throws -> ConfigFile? {
        do {
            return try load()
        } catch {
            throw ValidationError(error.errorDescription ?? "bad configuration file")
        }
    }

    /// `--config PATH` must exist; the default file is optional.
    private func load() throws(ConfigError) -> ConfigFile? {
        if noConfig { return nil }
        if let config { return try ConfigFile.load(path: config) }
        let path = ConfigFile.defaultPath(environment: ProcessInfo.processInfo.environment)
        return FileManager.default.fileExists(atPath: path) ? try ConfigFile.load(path: path) : nil
    }

    /// The history database: `--history`, else the file's `history`, else `history.sqlite` in the
    /// file's `output` folder, else `Output/history.sqlite`: where reports record their runs.
    static func historyPath(flag: String?, request: ReportRequest) -> String {
        if let flag { return flag }
        return request.historyPath ?? "Output/history.sqlite"
    }
}
