import Foundation
import Testing

@testable import CryptoReport

/// The ticker body read in parts at once (`TickerScanner.withRowParts`) and judged in place must
/// give exactly what reading it in one part gives: the same rows, tickers, notes in the same order,
/// the same error, wherever the parts are cut — inside a string, a key, a number, between rows.
@Suite("Tickers read in parts, as in one")
struct TickerPartsTests {
    /// Every fixture, the real capture, and bodies made to trip a cut.
    static func bodies() throws -> [Data] {
        var bodies = [try Fixtures.tickers]
        let folders = ["corpus/tickers", "fuzz-regressions/tickers"].map { Fixtures.fixturesFolder.appendingPathComponent($0) }
        for folder in folders {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() {
                bodies.append(try Data(contentsOf: folder.appendingPathComponent(name)))
            }
        }
        let row = #"{"symbol":"btcinr","baseAsset":"btc","quoteAsset":"inr","lastPrice":"1398000.0","volume":"6.9","at":1669078292000}"#
        let sample = String(decoding: try Fixtures.tickers, as: UTF8.self)
        for variant in [
            // A string holding what a part's start is guessed from: `},{` and `} , {`.
            #"[{"symbol":"a","x":"},{","lastPrice":"1","baseAsset":"a","quoteAsset":"b"},{"symbol":"c","x":"} , {\"","lastPrice":"2","baseAsset":"c","quoteAsset":"b"}]"#,
            #"[{"symbol":"a","note":"},{},{},{},{","lastPrice":"1","baseAsset":"a","quoteAsset":"b"},{"symbol":"b","lastPrice":"1","baseAsset":"a","quoteAsset":"b"}]"#,
            // Symbols repeated across parts, in either case; a bad row in a later part.
            "[" + Array(repeating: row, count: 5).joined(separator: ",") + "," + row.replacingOccurrences(of: "btcinr", with: "BTCINR") + "]",
            "[" + row + "," + row.replacingOccurrences(of: "\"lastPrice\":\"1398000.0\",", with: "") + "," + row.replacingOccurrences(of: "btcinr", with: "ethinr") + "]",
            // Not an object, malformed, or more after the array, in a later part.
            "[" + row + "," + row + ",1]", "[" + row + "," + row + ",{]", "[" + row + "," + row + "] x", "[" + row + "," + row + ",",
            "[" + row + " , \n " + row + "\t,\r\n" + row + "  ]  ", "[" + row + "," + row + ",{}]", "[" + row + ",{},{}," + row + "]",
            sample.replacingOccurrences(of: ",", with: " ,\n\t"), sample.replacingOccurrences(of: "},{", with: "},{\"u\":\"},{\"},{"),
            sample.replacingOccurrences(of: "\"volume\":", with: "\"extra\":\"},{\",\"volume\":"),
            sample.replacingOccurrences(of: "\"at\":", with: "\"at\":-"), "[]", " [ ] ", "[{}]", "[{},]", "[{}] x",
        ] {
            bodies.append(Data(variant.utf8))
        }
        return bodies
    }

    /// A decoding's whole outcome, to compare.
    static func outcome(_ body: Data, partBytes: Int) -> String {
        do {
            let result = try TickerDecoder().decode(body, partBytes: partBytes)
            return "\(result.tickers)|\(result.received)|\(result.diagnostics)"
        } catch {
            return "error \(error)"
        }
    }

    @Test("each body decodes to the same tickers, counts, notes and errors cut in parts of any size as in one part, and as read by JSONDecoder")
    func decodeInParts() throws {
        var disagreements: [String] = []
        for body in try Self.bodies() {
            let whole = Self.outcome(body, partBytes: .max)
            // 0: JSONDecoder's reading, judged a row at a time (the plain path).
            for partBytes in [0, 1, 2, 3, 5, 8, 13, 40, 64, 111, 333, 1_000, 4_096] where Self.outcome(body, partBytes: partBytes) != whole {
                disagreements.append("\(partBytes): " + String(decoding: body.prefix(60), as: UTF8.self))
            }
        }
        #expect(disagreements == [])
    }

    /// The rows' slots: kind, offset and length of each field, the same bytes when equal.
    static func slots(_ rows: [TickerScanner.Row]) -> [[UInt64]] {
        rows.map { row in (0..<RawTickerRow.keys.count).map { row.slot($0) } }
    }

    @Test("the rows of the parts, joined, are the rows of one reading, or both leave the body to JSONDecoder")
    func rowsInParts() throws {
        var disagreements: [String] = []
        var split = 0
        for body in try Self.bodies() {
            // The plain reader's rows, from the body's start to its end.
            var plain: [[UInt64]] = []
            let read = TickerScanner.forEachRow(body) { row in if let row { plain += Self.slots([row]) } }
            let whole = read.map { _ in plain }
            for partBytes in [1, 7, 64, 500] {
                let parts = TickerScanner.withRowParts(body, partBytes: partBytes) { $0 }
                if let count = parts?.count, count > 1 { split += 1 }
                let inParts = TickerScanner.withRowParts(body, partBytes: partBytes) { Self.slots($0.flatMap { $0 }) }
                if inParts != whole { disagreements.append("\(partBytes): " + String(decoding: body.prefix(60), as: UTF8.self)) }
            }
        }
        #expect(disagreements == [])
        #expect(split > 40, "bodies were read in several parts")
    }

    @Test("a part guessed to begin inside a string is dropped, and its bytes read from where the row before really ended")
    func guessInsideString() throws {
        let body = Data(#"[{"symbol":"a","x":"},{","lastPrice":"1","baseAsset":"a","quoteAsset":"b"},{"symbol":"c","lastPrice":"2","baseAsset":"c","quoteAsset":"b"}]"#.utf8)
        let inside = try #require(body.firstRange(of: Data(#""},{""#.utf8))).lowerBound + 3
        let starts = body.withUnsafeBytes { TickerScanner.guessedStarts($0, partBytes: 5) }
        #expect(starts.contains(inside), "a guess lands inside the string")
        let symbols = try TickerDecoder().decode(body, partBytes: 5).tickers.map(\.symbol)
        #expect(symbols == ["a", "c"])
        let parts = TickerScanner.withRowParts(body, partBytes: 5) { $0.map(\.count) }
        #expect(parts?.reduce(0, +) == 2)
    }

    @Test("the real capture is read in several parts, each row once, in order")
    func sampleInParts() throws {
        let body = try Fixtures.tickers
        let counts = try #require(TickerScanner.withRowParts(body, partBytes: 4_096) { $0.map(\.count) })
        #expect(counts.count > 10 && counts.reduce(0, +) == 450)
        let tickers = try TickerDecoder().decode(body, partBytes: 4_096).tickers
        #expect(tickers == (try TickerDecoder().decode(body, partBytes: .max).tickers))
        #expect(tickers.count == 450)
    }

    @Test("the first of each key is told apart from later ones, keys of one hash (or one slot) by their own value")
    func firstSymbols() {
        let keys = ["a", "b", "a", "c", "b", "d", "a", "e"]
        // Hashes that collide (a, b, c share one; d's lands in a's slot), and the real ones.
        let hashes: [[Int]] = [
            keys.map { ["a": 7, "b": 7, "c": 7, "d": 7 + (1 << 40), "e": -1][$0] ?? 0 },
            keys.map(\.hashValue),
        ]
        for hash in hashes {
            var table = FirstSymbols(capacity: 4)
            var places: [String] = []
            let firsts = keys.indices.map { index -> Bool in
                let isFirst = table.insert(places.count, hash: hash[index]) { places[$0] == keys[index] }
                if isFirst { places.append(keys[index]) }
                return isFirst
            }
            #expect(firsts == [true, true, false, true, false, true, false, true])
        }
    }
}
