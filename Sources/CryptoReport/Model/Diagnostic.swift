/// A recoverable problem: the run goes on, the report says what was left out and why.
/// Values: Rendering's `DiagnosticText` words them for the reports and the log.
public struct Diagnostic: Sendable, Equatable, Hashable {
    public enum Kind: Sendable, Equatable, Hashable {
        /// A `--symbols` entry names neither a market nor a base asset the feed listed.
        case unmatchedSymbol(String)
        /// Markets quoted in `quoteAsset` could not be priced in the report currency; `reason` is
        /// the converter's, and `symbols` every market left out, in feed order.
        case leftOut(symbols: [String], quoteAsset: String, reason: String)
        /// A row of the feed skipped or amended by the decoder, described by the decoder itself:
        /// the same sentence is the decoding error's when no row is usable.
        case input(String)
    }

    public var source: DataSource
    public var kind: Kind

    public init(_ source: DataSource, _ kind: Kind) {
        self.source = source
        self.kind = kind
    }

    /// A decoder's note.
    public init(_ source: DataSource, _ message: String) {
        self.init(source, .input(message))
    }

    /// The decoder's own sentence, for `.input`.
    public var decoderNote: String? {
        guard case let .input(text) = kind else { return nil }
        return text
    }
}
