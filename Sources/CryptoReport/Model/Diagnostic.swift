public import Foundation

/// A recoverable problem: the run goes on, the report says what was left out and why.
/// Values: Rendering's `DiagnosticText` words them for the reports and the log.
public struct Diagnostic: Sendable, Equatable, Hashable {
    public enum Kind: Sendable, Equatable, Hashable {
        /// A `--symbols` entry names neither a market nor a base asset the feed listed.
        case unmatchedSymbol(String)
        /// Markets quoted in `quoteAsset` could not be priced in the report currency; `reason` is
        /// the converter's, and `symbols` every market left out, in feed order.
        case leftOut(symbols: [String], quoteAsset: String, reason: String)
        /// A market whose bid is above its ask (a crossed book), in the feed's own figures: kept
        /// as sent, with the negative spread they make.
        case crossedBook(symbol: String, bid: Decimal, ask: Decimal)
        /// A market whose 24 h figures contradict each other (its high below its low, or its last
        /// price outside them), in the feed's own figures: kept as sent.
        case contradictoryRange(symbol: String, low: Decimal, high: Decimal, last: Decimal)
        /// The ECB file has no USD, so the top lists' default floor (100 USD's worth) cannot be
        /// put in `currency`: the lists have no floor.
        case noVolumeFloor(currency: String)
        /// A currency the ECB file lists with different rates, which the report did not need: left out.
        case ambiguousRate(currency: String, rates: [Decimal])
        /// A row of the feed skipped or amended by the decoder, described by the decoder itself:
        /// the same sentence is the decoding error's when no row is usable.
        case input(String)
        /// `--cross-check`: an asset's price on another exchange differs from the report's by
        /// `percent` (signed, of the report's price), more than `tolerance`.
        case crossCheck(
            asset: String, currency: String, price: Decimal, exchange: Exchange, otherPrice: Decimal, other: Exchange, percent: Decimal,
            tolerance: Decimal)
        /// `--cross-check`: another exchange could not be read, so nothing was compared with it.
        case notCrossChecked(Exchange, reason: String)
        /// Stands for `count` more diagnostics of one `group` after the first few.
        case moreLikeIt(count: Int, group: String)
    }

    public var source: DataSource
    public var kind: Kind
    /// What this problem has in common with others (`no lastPrice`), for summing up a payload
    /// with the same fault in every row; not part of what it says, nor of its identity.
    public var group: String?

    public init(_ source: DataSource, _ kind: Kind, group: String? = nil) {
        self.source = source
        self.kind = kind
        self.group = group
    }

    /// A decoder's note.
    public init(_ source: DataSource, _ message: String, group: String? = nil) {
        self.init(source, .input(message), group: group)
    }

    public static func == (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        lhs.source == rhs.source && lhs.kind == rhs.kind
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(kind)
    }

    /// How many of one group are listed before the rest are summed up.
    public static let keptPerGroup = 5

    /// `diagnostics` with at most `keptPerGroup` of each group; where the next would have come,
    /// one `.moreLikeIt` stands for the rest (`… and 999,995 more rows like it (no lastPrice)`),
    /// so that a million broken rows make six lines on standard error and in every report.
    public static func summarised(_ diagnostics: [Diagnostic], keeping kept: Int = keptPerGroup) -> [Diagnostic] {
        var seen: [String: Int] = [:]
        var summaryIndex: [String: Int] = [:]
        var result: [Diagnostic] = []
        for diagnostic in diagnostics {
            guard let group = diagnostic.group else {
                result.append(diagnostic)
                continue
            }
            let count = seen[group, default: 0] + 1
            seen[group] = count
            if count <= kept {
                result.append(diagnostic)
            } else if count == kept + 1 {
                summaryIndex[group] = result.count
                result.append(diagnostic)
            }
        }
        for (group, index) in summaryIndex {
            result[index] = Diagnostic(result[index].source, .moreLikeIt(count: seen[group, default: 0] - kept, group: group), group: group)
        }
        return result
    }

    /// The decoder's own sentence, for `.input`.
    public var decoderNote: String? {
        guard case let .input(text) = kind else { return nil }
        return text
    }
}
