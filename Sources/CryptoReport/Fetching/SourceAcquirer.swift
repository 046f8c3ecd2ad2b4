import Foundation
import Logging

/// Gets one source's parsed data: live if it can, else from the cache when that is allowed and
/// young enough, and says which.
struct SourceAcquirer: Sendable {
    var policy: FetchPolicy
    var loader: SourceLoader
    var cache: PayloadCache
    var clock: any ReportClock
    var logger: Logger

    struct Acquired<Value: Sendable>: Sendable {
        var payload: FetchedPayload
        var value: Value
    }

    func acquire<Value: Sendable>(
        _ location: SourceLocation, source: DataSource, parse: @Sendable (Data) throws -> Value
    ) async throws -> Acquired<Value> {
        // Only network sources are cached; files and the sample are already local.
        guard case .http = location else {
            let payload = try await loader.load(location, source: source)
            return Acquired(payload: payload, value: try parse(payload.data))
        }
        if policy.offline {
            guard let cached = cached(source, location: location, liveError: nil, parse: parse) else {
                throw FetchError.notCached(source: source, directory: cache.directory.path)
            }
            return cached
        }
        do {
            let payload = try await loader.load(location, source: source)
            let value = try parse(payload.data)
            if let problem = cache.store(payload) {
                logger.warning("\(source.displayName): \(problem)")
            }
            return Acquired(payload: payload, value: value)
        } catch let error where Self.isSourceFailure(error) {
            let message = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
            guard !policy.strict,
                let cached = cached(source, location: location, liveError: Self.reason(message, source: source), parse: parse)
            else { throw error }
            logger.warning(
                "\(message) Using the cached copy fetched \(ReportDates.minute(cached.payload.fetchedAt)) instead.")
            return cached
        }
    }

    /// The cached payload, if one exists, was fetched from this location, is younger than
    /// `--max-age` (and not from the future) and still parses. Each refusal is a warning: the
    /// error that follows only says no usable copy was found.
    private func cached<Value>(
        _ source: DataSource, location: SourceLocation, liveError: String?, parse: (Data) throws -> Value
    ) -> Acquired<Value>? {
        guard let entry = cache.load(source) else {
            if cache.hasFiles(source) {
                logger.warning("\(source.displayName): the cached copy in \(cache.directory.path) is damaged (its body and record disagree).")
            }
            return nil
        }
        guard entry.location == location.description else {
            logger.warning("\(source.displayName): the cached copy was fetched from \(entry.location), not \(location.description).")
            return nil
        }
        let age = clock.now().timeIntervalSince(entry.fetchedAt)
        // A few minutes of clock skew are tolerated; a copy "fetched" later than that is not
        // dated honestly, and its age could not be judged.
        guard age >= -Self.clockSkew else {
            logger.warning("\(source.displayName): the cached copy says it was fetched \(ReportDates.minute(entry.fetchedAt)), in the future.")
            return nil
        }
        guard age <= policy.maxAge[source] else {
            logger.warning(
                "\(source.displayName): the cached copy is \(MaxAge.describe(age)) old, past the \(MaxAge.describe(policy.maxAge[source])) limit (--max-age).")
            return nil
        }
        guard let value = try? parse(entry.data) else {
            logger.warning("\(source.displayName): the cached copy in \(cache.directory.path) no longer reads.")
            return nil
        }
        let payload = FetchedPayload(
            source: source, location: location, data: entry.data, fetchedAt: entry.fetchedAt,
            origin: .cache(liveError: liveError))
        return Acquired(payload: payload, value: value)
    }

    static let clockSkew: TimeInterval = 300

    /// The source failed (unreachable, error status, unusable body); not a mistake of ours or
    /// the user's, which a cached copy would only hide.
    static func isSourceFailure(_ error: any Error) -> Bool {
        if let fetch = error as? FetchError {
            return fetch.exitStatus == .unavailable || fetch.exitStatus == .dataError
        }
        return error is DataError
    }

    /// The failure without the source's name, which the banner already says.
    static func reason(_ message: String, source: DataSource) -> String {
        let prefix = source.displayName + ": "
        return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
    }
}
