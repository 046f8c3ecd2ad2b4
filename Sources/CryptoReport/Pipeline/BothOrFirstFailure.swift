/// Runs two throwing operations concurrently and returns both results; the first to fail cancels
/// the other and its error is the one thrown.
///
/// `async let` awaits in the order written: if the second source failed at once while the first
/// was still retrying, the run would sit through every retry before reporting the failure.
func bothOrFirstFailure<A: Sendable, B: Sendable>(
    _ first: @escaping @Sendable () async throws -> A,
    _ second: @escaping @Sendable () async throws -> B
) async throws -> (A, B) {
    try await withThrowingTaskGroup(of: EitherResult<A, B>.self) { group in
        group.addTask { .first(try await first()) }
        group.addTask { .second(try await second()) }
        var a: A?
        var b: B?
        // `next()` throws the first error in completion order; leaving the closure then cancels
        // the task still running and waits for it.
        while let finished = try await group.next() {
            switch finished {
            case let .first(value): a = value
            case let .second(value): b = value
            }
        }
        guard let a, let b else { throw CancellationError() }
        return (a, b)
    }
}

private enum EitherResult<A: Sendable, B: Sendable>: Sendable {
    case first(A)
    case second(B)
}
