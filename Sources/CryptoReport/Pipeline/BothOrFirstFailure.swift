/// Runs two throwing operations concurrently and returns both results.
///
/// The rule for failures, the same every time whichever finishes sooner:
/// - A failure of the first operation (the tickers, which are the report) cancels the second at
///   once and is the error thrown.
/// - A failure of the second that `waitsForFirst` (a network failure: the first is most likely
///   failing the same way, still retrying) cancels nothing: the first runs to its end, and its
///   error, if it fails too, is the one thrown; else the second's.
/// - Any other failure of the second (an HTTP 404, bad data, a missing file) cancels the first's
///   remaining work at once (its retries) and is thrown, unless the first finished with an error
///   of its own anyway (work that cannot be cancelled, such as reading a file): that one is.
///
/// So with both sources unreachable the tickers' error is reported every time.
func bothOrFirstFailure<A: Sendable, B: Sendable>(
    _ first: @escaping @Sendable () async throws -> A,
    _ second: @escaping @Sendable () async throws -> B,
    secondWaitsForFirst waitsForFirst: @escaping @Sendable (any Error) -> Bool = { _ in false }
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
            if case let .failure(error) = b, !waitsForFirst(error) { group.cancelAll() }
        }
        // A cancelled operation's error only echoes the other's failure.
        if let failure = a?.failure, !(failure is CancellationError) { throw failure }
        if let failure = b?.failure, !(failure is CancellationError) { throw failure }
        if let failure = a?.failure ?? b?.failure { throw failure }
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
