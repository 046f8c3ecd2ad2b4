public import Foundation

/// The report could not be written.
public enum OutputError: LocalizedError, ExitStatusProviding, Equatable {
    case cannotCreateDirectory(path: String, reason: String)
    case notWritable(path: String, reason: String)
    case writeFailed(path: String, reason: String)
    case locked(path: String, seconds: Double)

    public var errorDescription: String? {
        switch self {
        case let .cannotCreateDirectory(path, reason):
            "Output: cannot create the folder \(path): \(reason)."
        case let .notWritable(path, reason):
            "Output: cannot write into \(path): \(reason)."
        case let .writeFailed(path, reason):
            "Output: cannot write \(path): \(reason)."
        case let .locked(path, seconds):
            "Output: another cryptoreport run is writing into \(path); gave up after waiting \(FetchError.format(seconds)) s (--lock-timeout)."
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .locked: .temporaryFailure
        default: .cannotCreateOutput
        }
    }
}
