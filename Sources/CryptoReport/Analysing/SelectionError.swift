public import Foundation

/// A selection that names nothing the feed lists: a typo must not pass for a quiet market.
public enum SelectionError: LocalizedError, ExitStatusProviding, Equatable {
    case nothingMatches(symbols: [String])

    public var errorDescription: String? {
        switch self {
        case let .nothingMatches(symbols):
            "--symbols: WazirX lists no market or base asset named \(symbols.map { "\"\($0)\"" }.joined(separator: ", "))."
        }
    }

    public var exitStatus: ExitStatus { .usage }
}
