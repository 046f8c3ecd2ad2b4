import Foundation
import Logging

/// What each asset is called (`btc` → `Bitcoin`): never a reason for a report to fail.
extension ReportPipeline {
    /// WazirX's live list where `FetchPolicy.assetNamesLocation` names one, read as the tickers
    /// are (the same client, retries and cache; a cached copy of any age, `--strict` or not), else
    /// the built-in list. Any failure falls back to the cached copy, then to the built-in list,
    /// and says so in one warning; the sample, a source without a list and `--offline` without a
    /// cached copy use the built-in list by design, without a word.
    func acquireAssetNames(_ fetch: FetchPolicy, acquirer: SourceAcquirer) async -> AssetNamesDecoder.Result {
        let location: SourceLocation?
        do {
            location = try fetch.assetNamesLocation()
        } catch {
            logger.warning("\(Self.sentence(error)) \(Self.usingBuiltInNames)")
            return Self.builtInAssetNames
        }
        guard let location else { return Self.builtInAssetNames }
        // The one warning is this function's: the acquirer's and the loader's own (each retry, each
        // refused cached copy) would make several lines of a list the report can do without.
        var quiet = acquirer
        quiet.logger.logLevel = .error
        quiet.loader.logger.logLevel = .error
        quiet.policy.strict = false
        do {
            let acquired = try await quiet.acquire(location, source: .wazirxAssets) { try AssetNamesDecoder().decode($0) }
            if case let .cache(liveError?) = acquired.payload.origin {
                logger.warning(
                    "\(DataSource.wazirxAssets.displayName): \(liveError) Using the cached copy fetched \(ReportDates.minute(acquired.payload.fetchedAt)) instead."
                )
            }
            return acquired.value
        } catch {
            // The run failed already (the tickers or the rates), or the names are not cached
            // for `--offline`: the built-in list, as planned, and nothing to say.
            let planned: Bool
            if case .notCached? = error as? FetchError { planned = true } else { planned = false }
            if !Task.isCancelled && !planned {
                logger.warning("\(Self.sentence(error)) \(Self.usingBuiltInNames)")
            }
            return Self.builtInAssetNames
        }
    }

    static let usingBuiltInNames = "Using the built-in asset names (WazirX's list of 2020-03-31) instead."

    /// The built-in list (`Samples/market-status-2020-03-31.json`), decoded once per process.
    static let builtInAssetNames: AssetNamesDecoder.Result = (try? AssetNamesDecoder().decode(EmbeddedSample.assetNames)) ?? AssetNamesDecoder.Result()

    /// An error's message as a sentence that another can follow.
    private static func sentence(_ error: any Error) -> String {
        let message = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
        return message.hasSuffix(".") ? message : message + "."
    }
}
