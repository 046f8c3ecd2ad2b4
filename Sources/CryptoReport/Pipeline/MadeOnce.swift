import Foundation

/// A value made the first time any thread asks for it, and only once: the report's view model,
/// which the HTML page and the Markdown report both use and which each may start making on its
/// own core when the files are staged concurrently (`ReportWriter.stageAhead`). The second to
/// ask waits for the first's value instead of making another.
///
/// The one that waits does not sleep: it makes parts of the work on the pool (`WorkerPool.help`),
/// the value's own chunks among them (the view model's rows are made in chunks on every core).
final class MadeOnce<Value>: @unchecked Sendable {
    private enum State {
        case waiting(() -> Value)
        case making
        case made(Value)
    }

    private let lock = NSLock()
    private var state: State

    init(_ make: @escaping () -> Value) {
        state = .waiting(make)
    }

    var value: Value {
        lock.lock()
        switch state {
        case let .made(value):
            lock.unlock()
            return value
        case let .waiting(make):
            state = .making
            lock.unlock()
            let value = make()
            lock.withLock { state = .made(value) }
            WorkerPool.shared.wakeHelpers()
            return value
        case .making:
            lock.unlock()
            return madeByAnother()
        }
    }

    /// The value another thread is making, once it is made; parts of the pool's work made meanwhile.
    private func madeByAnother() -> Value {
        while true {
            var found: Value?
            WorkerPool.shared.help {
                found = self.made
                return found != nil
            }
            if let found { return found }
        }
    }

    private var made: Value? {
        lock.withLock {
            if case let .made(value) = state { return value }
            return nil
        }
    }
}
