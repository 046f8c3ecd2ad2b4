import Foundation

/// The history database could not be used.
public enum HistoryError: LocalizedError, ExitStatusProviding, Equatable {
    case cannotOpen(path: String, reason: String)
    case failed(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case let .cannotOpen(path, reason): "History: cannot open \(path): \(reason)."
        case let .failed(path, reason): "History: \(path): \(reason)."
        }
    }

    public var exitStatus: ExitStatus { .cannotCreateOutput }
}
