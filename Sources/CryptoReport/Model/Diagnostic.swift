/// A recoverable problem: the run goes on, the report says what was left out and why.
public struct Diagnostic: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public var source: DataSource
    public var message: String

    public init(_ source: DataSource, _ message: String) {
        self.source = source
        self.message = message
    }

    public var description: String { "\(source.displayName): \(message)" }
}
