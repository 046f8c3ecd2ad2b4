public import CryptoReport
import Foundation

/// Tests build whole `Settings` and hand the pipeline its parts, as the command does.
extension ReportPipeline {
    func run(_ settings: Settings) async throws -> Outcome {
        try await run(settings.report, fetch: settings.fetch, output: settings.output)
    }

    func makeReport(_ settings: Settings) async throws -> Report {
        try await makeReport(settings.report, fetch: settings.fetch)
    }
}

extension CurrencyCode: ExpressibleByStringLiteral {
    /// Test literals only: a bad one is a mistake in the test.
    public init(stringLiteral text: String) {
        guard let code = CurrencyCode(text) else { preconditionFailure("not a currency code: \(text)") }
        self = code
    }
}

extension SourceLocation {
    /// A URL or path as a test writes it.
    static func at(_ text: String, _ source: DataSource = .tickers) -> SourceLocation {
        (try? SourceLocation(parsing: text, source: source)) ?? .file(text)
    }
}
