import Foundation

@testable import CryptoReport

/// The daily report reads the ECB file with the tree parser, backfill the 90-day file with the
/// streaming reader: two readings of one format, which must agree.
enum ECBReaders {
    /// Why the two readers disagree on `data`, or nil when they agree: the same days and rates, or
    /// a refusal from both (a document with no dated day counts as a refusal by the tree parser,
    /// since a run refuses it). Errors must be one line.
    static func disagreement(on data: Data) -> String? {
        let tree = Result { () throws(DataError) in try ECBRatesParser().parseDays(data) }
            .flatMap { $0.isEmpty ? .failure(.noRates(detail: "no day")) : .success($0) }
        let stream = Result { () throws(DataError) in try ECBHistoryReader().read(data) }
        switch (tree, stream) {
        case let (.success(expected), .success(actual)):
            return actual == expected ? nil : "different days or rates: tree \(expected), reader \(actual)"
        case let (.failure, .failure(error)):
            let message = error.errorDescription ?? ""
            return message.contains("\n") ? "a multi-line error: \(message)" : nil
        case let (.success(days), .failure(error)):
            return "the tree parser read \(days.count) day(s); the reader refused: \(error.errorDescription ?? "")"
        case let (.failure(error), .success(days)):
            return "the tree parser refused (\(error.errorDescription ?? "")); the reader read \(days)"
        }
    }
}
