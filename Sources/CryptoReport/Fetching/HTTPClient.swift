public import Foundation

/// A response, status, headers and body; whatever the status.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }
}

/// The one HTTP call the tool makes: a GET with a time limit and a size limit.
public protocol HTTPClient: Sendable {
    /// Throws `FetchError` when no complete response arrives in time or the body grows past
    /// `maximumBytes`; an HTTP error status is a response, not an error.
    func get(_ url: URL, timeout: TimeInterval, maximumBytes: Int, source: DataSource) async throws -> HTTPResponse

    /// POSTs `json` (a notice to a webhook); no redirect is followed. Throws `FetchError` naming
    /// `source` when no complete response arrives in time; an error status is a response.
    func post(_ url: URL, json: Data, timeout: TimeInterval, source: DataSource) async throws -> HTTPResponse
}

extension HTTPClient {
    /// A client that only reads feeds (a test's) sends nothing.
    public func post(_ url: URL, json: Data, timeout: TimeInterval, source: DataSource) async throws -> HTTPResponse {
        throw FetchError.unsupportedLocation(source: source, location: url.absoluteString)
    }
}
