import Foundation
import Testing

@testable import CryptoReport

/// A command that exits after its run leaves the run's values to the process's end; a program
/// that makes reports in turn frees them as each run returns.
@Suite("Values left to the process's end")
struct ValuesKeptToExitTests {
    @Test("a run asked to leave its values to the end keeps them; a library's run, by default, keeps nothing")
    func kept() async throws {
        let folder = try TemporaryFolder()
        var settings = Settings()
        settings.fetch.tickers = .at(Fixtures.tickersURL.path)
        settings.fetch.rates = .at(Fixtures.ratesURL.path, .rates)
        settings.output.destination = .directory(folder.url.path)
        settings.output.noHistory = true
        let before = ValuesKeptToExit.count
        let freed = try await ReportPipeline().run(settings)
        #expect(!freed.written.isEmpty)
        #expect(ValuesKeptToExit.count == before)
        var pipeline = ReportPipeline()
        pipeline.leavesValuesToExit = true
        let kept = try await pipeline.run(settings)
        #expect(kept.written.map(\.lastPathComponent) == freed.written.map(\.lastPathComponent))
        #expect(ValuesKeptToExit.count == before + 1)
    }
}
