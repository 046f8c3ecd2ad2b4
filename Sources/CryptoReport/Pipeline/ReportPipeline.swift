import Foundation
import Logging

/// One report run: fetch → parse → convert → analyse → render → write.
///
/// Every stage between the edges is a pure function over in-memory values; I/O happens only in
/// the loader (fetch) and the writer (output), both replaceable for tests.
public struct ReportPipeline: Sendable {
    public var http: any HTTPClient
    public var files: any FileReading
    public var clock: any ReportClock
    public var logger: Logger

    public init(
        http: any HTTPClient = URLSessionHTTPClient(), files: any FileReading = LocalFileReader(),
        clock: any ReportClock = SystemClock(), logger: Logger = Logger(label: "cryptoreport")
    ) {
        self.http = http
        self.files = files
        self.clock = clock
        self.logger = logger
    }

    /// What a run produced.
    public struct Outcome: Sendable {
        public var report: Report
        /// Files written, in format order; empty for standard output.
        public var written: [URL]
        /// The single report, when it goes to standard output.
        public var standardOutput: String?
    }

    /// Runs the whole pipeline as the command line asks.
    public func run(_ request: ReportRequest) async throws -> Outcome {
        let request = try request.validated()
        // Both fail before any fetch: a bad template or an unwritable folder is known up front.
        let templates = try TemplateRenderer(directory: request.templatesDirectory.map { URL(fileURLWithPath: $0) })
        var writer: ReportWriter?
        if case let .directory(path) = request.destination {
            writer = ReportWriter(directory: URL(fileURLWithPath: path))
            try writer?.prepare()
        }
        let report = try await makeReport(request)
        for diagnostic in report.diagnostics {
            logger.warning("\(diagnostic.description)")
        }
        let rendered = try request.formats.map { format in
            (format, try render(report, as: format, templates: templates))
        }
        guard let writer else {
            return Outcome(report: report, written: [], standardOutput: rendered.first?.1)
        }
        let files = rendered.map { format, text in
            (name: "cryptoreport-\(report.dataDate)-\(report.currency).\(format.fileExtension)", contents: text)
        }
        return Outcome(report: report, written: try writer.write(files), standardOutput: nil)
    }

    /// Fetches both sources concurrently and builds the report.
    public func makeReport(_ request: ReportRequest) async throws -> Report {
        let generatedAt = clock.now()
        let loader = SourceLoader(http: http, files: files, clock: clock, timeout: request.timeout)
        let tickerLocation: SourceLocation
        let ratesLocation: SourceLocation
        if request.sample {
            tickerLocation = .embedded(name: EmbeddedSample.tickersName)
            ratesLocation = .embedded(name: EmbeddedSample.ratesName)
        } else {
            tickerLocation = try SourceLocation(
                parsing: request.tickersLocation ?? SourceLocation.defaultTickersURL, source: .tickers)
            ratesLocation = try SourceLocation(
                parsing: request.ratesLocation ?? SourceLocation.defaultRatesURL, source: .rates)
        }
        logger.debug("fetching \(tickerLocation.description) and \(ratesLocation.description)")
        async let tickerPayload = loader.load(tickerLocation, source: .tickers)
        async let ratesPayload = loader.load(ratesLocation, source: .rates)
        let (tickerData, ratesData) = try await (tickerPayload, ratesPayload)
        return try ReportBuilder(request: request, generatedAt: generatedAt).build(tickers: tickerData, rates: ratesData)
    }

    public func render(_ report: Report, as format: ReportFormat, templates: TemplateRenderer) throws -> String {
        switch format {
        case .csv: CSVRenderer().render(report)
        case .json: try JSONRenderer().render(report)
        case .markdown, .html: templates.render(report, format: format)
        }
    }
}
