/// Runs two throwing operations concurrently and returns both results. The first failure cancels
/// the other operation at once; when both fail on their own, the first operation's error is the
/// one thrown, so that the same inputs always give the same message and exit code.
///
/// `async let` awaits in the order written: if the second source failed at once while the first
/// was still retrying, the run would sit through every retry before reporting the failure.
func bothOrFirstFailure<A: Sendable, B: Sendable>(
    _ first: @escaping @Sendable () async throws -> A,
    _ second: @escaping @Sendable () async throws -> B
) async throws -> (A, B) {
    try await withThrowingTaskGroup(of: EitherResult<A, B>.self) { group in
        group.addTask { .first(await Result { try await first() }) }
        group.addTask { .second(await Result { try await second() }) }
        var a: Result<A, any Error>?
        var b: Result<B, any Error>?
        while let finished = try await group.next() {
            switch finished {
            case let .first(result): a = result
            case let .second(result): b = result
            }
            if case .failure = a { group.cancelAll() }
            if case .failure = b { group.cancelAll() }
        }
        // A cancelled operation's error only echoes the other's failure.
        let failures = [a?.failure, b?.failure].compactMap { $0 }
        if let failure = failures.first(where: { !($0 is CancellationError) }) ?? failures.first { throw failure }
        guard let a = try a?.get(), let b = try b?.get() else { throw CancellationError() }
        return (a, b)
    }
}

private enum EitherResult<A: Sendable, B: Sendable>: Sendable {
    case first(Result<A, any Error>)
    case second(Result<B, any Error>)
}

extension Result where Failure == any Error {
    fileprivate init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }

    fileprivate var failure: (any Error)? {
        if case let .failure(error) = self { error } else { nil }
    }
}
