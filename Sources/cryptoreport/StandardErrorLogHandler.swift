import CryptoReport
import Foundation
import Logging

/// Plain one-line log messages on standard error: `cryptoreport: warning: …`.
struct StandardErrorLogHandler: LogHandler {
    var label: String
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        StandardStreams.writeError("cryptoreport: \(event.level): \(SourceText.messageLine("\(event.message)"))\n")
    }
}
