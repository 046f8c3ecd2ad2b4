import Foundation
import Testing

@testable import CryptoReport

/// Work on both cores must give what the same work gives on one: every item once, in order, and
/// a commit whose reports are staged at once still all or nothing.
@Suite("Work on every core, results in order")
struct ParallelWorkTests {
    @Test("chunks cover every position once, in order, for counts around the chunk size", arguments: [0, 1, 6, 7, 8, 13, 14, 15, 100])
    func chunksInOrder(count: Int) {
        let ranges = ParallelChunks.map(count, chunk: 7) { $0 }
        #expect(ranges.flatMap { Array($0) } == Array(0..<count))
        #expect(ranges.allSatisfy { !$0.isEmpty && $0.count <= 7 })
        #expect(ParallelChunks.elements(count, chunk: 7) { "\($0 * 3)" } == (0..<count).map { "\($0 * 3)" })
    }

    @Test("a batch at a time: each chunk handed on in order, across batches", arguments: [0, 5, 11, 12, 13, 50])
    func batchesInOrder(count: Int) {
        var seen: [Int] = []
        var largestBatch = 0
        ParallelChunks.forEach(count, chunk: 3, ahead: 4) { range in
            Array(range)
        } consume: { part in
            seen += part
            largestBatch = max(largestBatch, part.count)
        }
        #expect(seen == Array(0..<count))
        #expect(largestBatch <= 3)
    }

    @Test("chunks made ahead while others are consumed: never more than `ahead` waiting, consumed one at a time, in order", arguments: [1, 2, 4])
    func madeAhead(ahead: Int) {
        let state = AheadState()
        var seen: [Int] = []
        ParallelChunks.forEach(400, chunk: 3, ahead: ahead) { range in
            state.made()
            // Some work, so that chunks are made while one is consumed.
            return (Array(range), (0..<200).reduce(range.lowerBound) { $0 &+ $1 })
        } consume: { part in
            state.consuming(part.1)
            seen += part.0
            state.consumed()
        }
        #expect(seen == Array(0..<400))
        #expect(state.mostWaiting <= ahead && !state.overlapped)
    }

    @Test("a pool's threads made early are made once, and make parts of the work that comes after")
    func poolStartedEarly() {
        let pool = WorkerPool(threads: 2)
        pool.startThreads()
        pool.startThreads()
        #expect(pool.threadsMade == 2)
        let job = ThreadsOfParts(count: 40)
        pool.perform(job)
        #expect(job.threads.count == 40, "every part made once")
        #expect(Set(job.threads).count > 1, "parts made by the pool's threads, not only this one")
        #expect(pool.threadsMade == 2, "no thread made again when the work came")
    }

    /// Parts that each take a millisecond and say which thread made them.
    private final class ThreadsOfParts: WorkerPool.Job, @unchecked Sendable {
        let count: Int
        private var next = 0
        private var unfinished: Int
        private let lock = NSLock()
        private var madeBy: [ObjectIdentifier] = []

        init(count: Int) {
            self.count = count
            unfinished = count
        }

        var threads: [ObjectIdentifier] { lock.withLock { madeBy } }

        override func claim(byCaller: Bool) -> Int? {
            guard next < count else { return nil }
            next += 1
            return next - 1
        }

        override func run(_ part: Int) {
            Thread.sleep(forTimeInterval: 0.001)
            lock.withLock { madeBy.append(ObjectIdentifier(Thread.current)) }
        }

        override func finish(_ part: Int) { unfinished -= 1 }
        override var isDone: Bool { unfinished == 0 }
    }

    @Test("a lane done first helps the other; chunks, nested work and ordered output as on one thread")
    func laneHelps() {
        let results = Lanes()
        ParallelChunks.twoLanes { lane in
            guard lane == 1 else { return results.set(0, []) }
            var out: [Int] = []
            ParallelChunks.forEach(5_000, chunk: 7) { range in
                // Nested: each chunk's own elements made in chunks too.
                ParallelChunks.elements(range.count, chunk: 2) { range.lowerBound + $0 }
            } consume: { out += $0 }
            results.set(1, out)
        }
        #expect(results.get(0) == [] && results.get(1) == Array(0..<5_000))
        // And again, with the pool's threads already started and idle.
        #expect(ParallelChunks.elements(10_000, chunk: 16) { $0 &* 3 } == (0..<10_000).map { $0 &* 3 })
        #expect(ParallelChunks.map(1, chunk: 4) { $0 } == [0..<1] && ParallelChunks.map(0) { $0 }.isEmpty)
    }

    @Test("the selection's sort, in halves on two cores and merged in two parts, orders as one stable sort does, ties included", arguments: [0, 5, 8_191, 8_192, 8_193, 20_001])
    func halvesMerged(count: Int) {
        var generator = SystemRandomNumberGenerator()
        // Few distinct keys: most comparisons are ties, which only a stable merge keeps in order.
        // Then all ties, already in order, in reverse, and all of one half before the other's.
        let orders: [[Int]] = [
            (0..<count).map { _ in Int.random(in: 0..<50, using: &generator) }, Array(repeating: 1, count: count), Array(0..<count),
            Array((0..<count).reversed()), (0..<count).map { $0 < count / 2 ? 1 : 0 }, (0..<count).map { $0 < count / 2 ? 0 : 1 },
        ]
        let values = (0..<count).map { $0 * 7 + 3 }
        for keys in orders {
            let precedes: (Int, Int) -> Bool = { keys[$0] > keys[$1] }
            #expect(MarketSelector.stableSorted(values, by: precedes) == values.indices.sorted(by: precedes).map { values[$0] })
        }
    }

    @Test("the merge's split: the first n of a stable merge, from either side, for every n", arguments: [0, 1, 7])
    func mergeSplit(seed: Int) {
        var generator = SystemRandomNumberGenerator()
        let keys = (0..<40).map { _ in Int.random(in: 0..<(seed + 2), using: &generator) }
        let precedes: (Int, Int) -> Bool = { keys[$0] > keys[$1] }
        let left = (0..<23).sorted(by: precedes), right = (23..<40).sorted(by: precedes)
        // The stable merge, each element tagged with its side.
        var merged: [Bool] = []
        var (i, j) = (0, 0)
        while i < left.count || j < right.count {
            if j < right.count && (i == left.count || precedes(right[j], left[i])) { merged.append(false); j += 1 } else { merged.append(true); i += 1 }
        }
        for first in 0...40 {
            let fromLeft = merged.prefix(first).filter { $0 }.count
            #expect(MarketSelector.split(left, right, first: first, by: precedes) == (fromLeft, first - fromLeft))
        }
    }

    @Test("two lanes each run once, and chunks made inside a lane still cover every position in order")
    func twoLanes() {
        let lanes = Counter()
        let results = Lanes()
        ParallelChunks.twoLanes { lane in
            lanes.add()
            let made = ParallelChunks.elements(1_000, chunk: 10) { $0 * 2 + lane }
            results.set(lane, made)
        }
        #expect(lanes.value == 2)
        #expect(results.get(0) == (0..<1_000).map { $0 * 2 } && results.get(1) == (0..<1_000).map { $0 * 2 + 1 })
    }

    @Test("a value asked for from many threads at once is made once, and all get it")
    func madeOnce() {
        let makes = Counter()
        let once = MadeOnce { () -> [Int] in
            makes.add()
            return Array(0..<1_000)
        }
        let sums = ParallelChunks.map(64, chunk: 1) { _ in once.value.reduce(0, +) }
        #expect(sums == Array(repeating: 499_500, count: 64))
        #expect(makes.value == 1)
    }

    @Test("reports staged at once hold their own bytes; the copy links the report it names")
    func stagedAtOnce() throws {
        let folder = try TemporaryFolder()
        let writer = ReportWriter(directory: folder.url)
        func bytes(_ text: String) -> ReportWriter.File.Contents {
            .bytes { write in
                // In pieces, so that the lanes' writes interleave in time.
                for line in 0..<2_000 {
                    var piece = "\(text) \(line)\n"
                    piece.withUTF8 { write(UnsafeRawBufferPointer($0)) }
                }
            }
        }
        func expected(_ text: String) -> String { (0..<2_000).map { "\(text) \($0)\n" }.joined() }
        let written = try writer.write(files: [
            .init(name: "a.csv", contents: bytes("a"), weight: 1),
            .init(name: "b.json", contents: bytes("b"), weight: 2),
            .init(name: "c.html", contents: bytes("c"), weight: 4),
            .init(name: "latest.html", contents: .copy(of: "c.html")),
            .init(name: "d.md", contents: .text("d")),
        ])
        #expect(written.map(\.lastPathComponent) == ["a.csv", "b.json", "c.html", "latest.html", "d.md"])
        for name in ["a", "b", "c"] {
            #expect(ReportWriterTests.text(folder, written.first { $0.lastPathComponent.hasPrefix(name) }?.lastPathComponent ?? "") == expected(name))
        }
        #expect(ReportWriterTests.text(folder, "latest.html") == expected("c") && ReportWriterTests.text(folder, "d.md") == "d")
        #expect(ReportWriterTests.everything(in: folder) == ["a.csv", "b.json", "c.html", "d.md", "latest.html"])
    }

    @Test("a report staged at once that cannot be made replaces nothing, and no staged file stays", arguments: [0, 1, 2])
    func oneFailsAtOnce(failing: Int) throws {
        struct Broken: Error {}
        let folder = try TemporaryFolder()
        let writer = ReportWriter(directory: folder.url)
        try writer.write([("a.csv", "old a"), ("b.json", "old b"), ("c.html", "old c")])
        let names = ["a.csv", "b.json", "c.html"]
        let files = names.enumerated().map { index, name in
            ReportWriter.File(name: name, contents: .bytes { write in
                var text = "new \(name)"
                text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
                if index == failing { throw Broken() }
            }, weight: index + 1)
        }
        #expect(throws: OutputError.self) {
            try writer.write(files: files + [.init(name: "latest.html", contents: .copy(of: "c.html"))])
        }
        #expect(ReportWriterTests.everything(in: folder) == names)
        for name in names { #expect(ReportWriterTests.text(folder, name) == "old \(name.prefix(1))") }
    }

    @Test("tickers judged in chunks on every core: the same tickers, first of a symbol kept, notes in the body's order, as JSONDecoder's reading gives")
    func tickersInChunks() throws {
        // 3,000 rows (three chunks): repeated symbols across chunks, rows without a price, and
        // fields left empty, spread over them.
        var objects: [String] = []
        for index in 0..<3_000 {
            let symbol = index % 997 == 5 && index > 1_000 ? "s\(index - 1_000)usdt" : "s\(index)usdt"
            let last = index % 401 == 7 ? "-1" : "\(index + 1).5"
            let volume = index % 613 == 3 ? "lots" : "\(index)"
            objects.append(Fixtures.ticker(symbol, base: "s\(index)", quote: "usdt", last: last, volume: volume))
        }
        let scanned = try TickerDecoder().decode(Fixtures.tickerJSON(objects))
        // An escaped key the decoder ignores sends the same rows to JSONDecoder instead.
        let escaped = objects.enumerated().map { index, object in index == 0 ? "{\"n\\u0061me\":\"x\"," + object.dropFirst() : object }
        let decoded = try TickerDecoder().decode(Fixtures.tickerJSON(escaped))
        #expect(scanned.received == 3_000 && decoded.received == 3_000)
        #expect(scanned.tickers == decoded.tickers)
        #expect(scanned.diagnostics == decoded.diagnostics)
        #expect(scanned.tickers.count < 3_000 && scanned.diagnostics.count > 3)
        #expect(scanned.tickers.map(\.symbol) == scanned.tickers.map(\.symbol).sorted { Int($0.dropFirst().dropLast(4)) ?? 0 < Int($1.dropFirst().dropLast(4)) ?? 0 })
    }

    final class Lanes: @unchecked Sendable {
        private let lock = NSLock()
        private var made: [Int: [Int]] = [:]
        func set(_ lane: Int, _ values: [Int]) { lock.withLock { made[lane] = values } }
        func get(_ lane: Int) -> [Int]? { lock.withLock { made[lane] } }
    }

    /// Counts chunks made and not yet consumed, and notices two consumers at once.
    final class AheadState: @unchecked Sendable {
        private let lock = NSLock()
        private var waiting = 0, most = 0, inside = 0, twice = false
        func made() { lock.withLock { waiting += 1; most = max(most, waiting) } }
        func consuming(_: Int) { lock.withLock { inside += 1; twice = twice || inside > 1; waiting -= 1 } }
        func consumed() { lock.withLock { inside -= 1 } }
        var mostWaiting: Int { lock.withLock { most } }
        var overlapped: Bool { lock.withLock { twice } }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
}
