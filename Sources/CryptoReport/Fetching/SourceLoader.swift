import Foundation

/// A feed's raw bytes and when they were read.
public struct FetchedPayload: Sendable {
    public var source: DataSource
    public var location: SourceLocation
    public var data: Data
    public var fetchedAt: Date

    public init(source: DataSource, location: SourceLocation, data: Data, fetchedAt: Date) {
        self.source = source
        self.location = location
        self.data = data
        self.fetchedAt = fetchedAt
    }
}

/// Reads a feed from wherever its location says, turning every failure into a `FetchError`.
public struct SourceLoader: Sendable {
    public var http: any HTTPClient
    public var files: any FileReading
    public var clock: any ReportClock
    public var timeout: TimeInterval
    /// Bodies larger than this are refused.
    public var maximumBytes: Int

    public init(
        http: any HTTPClient = URLSessionHTTPClient(), files: any FileReading = LocalFileReader(),
        clock: any ReportClock = SystemClock(), timeout: TimeInterval = 15, maximumBytes: Int = 50 * 1024 * 1024
    ) {
        self.http = http
        self.files = files
        self.clock = clock
        self.timeout = timeout
        self.maximumBytes = maximumBytes
    }

    public func load(_ location: SourceLocation, source: DataSource) async throws -> FetchedPayload {
        let data: Data
        switch location {
        case let .http(url):
            let response = try await http.get(url, timeout: timeout, source: source)
            guard (200..<300).contains(response.status) else {
                throw FetchError.httpStatus(source: source, location: url.absoluteString, status: response.status)
            }
            data = response.body
        case let .file(path):
            data = try files.contents(of: path, source: source)
        case .embedded:
            data = source == .tickers ? EmbeddedSample.tickers : EmbeddedSample.rates
        }
        guard data.count <= maximumBytes else {
            throw FetchError.tooLarge(source: source, location: location.description, limit: maximumBytes)
        }
        return FetchedPayload(source: source, location: location, data: data, fetchedAt: clock.now())
    }
}
