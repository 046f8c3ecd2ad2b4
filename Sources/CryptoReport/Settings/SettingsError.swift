public import Foundation

/// A setting that cannot be used, named where it was read: the file's line and key, or the
/// environment variable (a flag's own errors are swift-argument-parser's, naming the flag).
public enum SettingsError: LocalizedError, ExitStatusProviding, Equatable {
    case unreadableFile(path: String, reason: String)
    /// `line` is `nil` when the file as a whole is wrong (not UTF-8).
    case file(path: String, line: Int?, message: String)
    case environment(variable: String, message: String)
    case conflict(String)

    public var errorDescription: String? {
        switch self {
        case let .unreadableFile(path, reason): "Config: cannot read \(path): \(reason)."
        case let .file(path, line?, message): "Config: \(path), line \(line): \(message)."
        case let .file(path, nil, message): "Config: \(path): \(message)."
        case let .environment(variable, message): "Environment: \(variable): \(message)."
        case let .conflict(message): "\(message)."
        }
    }

    /// A named file that is not there is missing input (66), as for the feeds; the rest are usage.
    public var exitStatus: ExitStatus {
        if case .unreadableFile = self { return .noInput }
        return .usage
    }
}

/// A value that is not what its setting takes; each layer says where it was read (a flag's,
/// swift-argument-parser, after the flag's name: the `description`).
public struct InvalidSettingValue: Error, Sendable, Equatable, CustomStringConvertible {
    /// `"-1" is not valid; expected a positive number of seconds, up to 86400`
    public var message: String
    /// For an array: the item at fault, so that the file can name its line.
    public var item: String?

    public init(_ message: String, item: String? = nil) {
        self.message = message
        self.item = item
    }

    public var description: String { message }

    static func value(_ text: String, expected: String) -> InvalidSettingValue {
        InvalidSettingValue("\"\(SourceText.escaped(text))\" is not valid; expected \(expected)")
    }
}
