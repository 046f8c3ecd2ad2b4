import Foundation

/// A value made the first time any thread asks for it, and only once: the report's view model,
/// which the HTML page and the Markdown report both use and which each may start making on its
/// own core when the files are staged concurrently (`ReportWriter.stageAhead`). The second to
/// ask waits for the first's value instead of making another.
final class MadeOnce<Value>: @unchecked Sendable {
    private enum State {
        case waiting(() -> Value)
        case made(Value)
    }

    private let lock = NSLock()
    private var state: State

    init(_ make: @escaping () -> Value) {
        state = .waiting(make)
    }

    var value: Value {
        lock.withLock {
            switch state {
            case let .made(value):
                return value
            case let .waiting(make):
                let value = make()
                state = .made(value)
                return value
            }
        }
    }
}
