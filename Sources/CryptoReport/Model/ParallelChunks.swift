import Dispatch

/// Per-market work split into fixed chunks that the machine's cores make at once, put back
/// together in the chunks' order.
///
/// Formatting a market's figures and writing its row and detail depend on that market alone,
/// and were the larger part of a big run on one core while the other idled. The chunks are cut
/// by position, never by which thread is free, so the result is the same bytes whatever the
/// scheduling. Written by hand: Dispatch's `concurrentPerform` does the scheduling; what no
/// library gives is the ordered, memory-bounded join around it.
enum ParallelChunks {
    /// Markets per chunk: enough to dwarf the cost of handing a chunk to a thread (a few
    /// microseconds), few enough that a small run still splits in two.
    static let defaultChunk = 256

    /// `make` over consecutive ranges of `0..<count` (each at most `chunk` long), concurrently;
    /// the results in the ranges' order.
    static func map<T>(_ count: Int, chunk: Int = defaultChunk, _ make: (Range<Int>) -> T) -> [T] {
        let chunk = max(1, chunk)
        let chunks = (count + chunk - 1) / chunk
        if chunks <= 1 { return count > 0 ? [make(0..<count)] : [] }
        // Each chunk's result in its own slot; the slots are read only once every chunk is made.
        let slots = Slots<T>(count: chunks)
        concurrently(chunks) { index in
            slots.set(index, make(index * chunk..<min(count, (index + 1) * chunk)))
        }
        return slots.values()
    }

    /// `body(0)`, `body(1)`, … `body(iterations - 1)` on the machine's cores, returning once all
    /// have run. The caller promises that the iterations touch disjoint state or lock what they
    /// share: `concurrentPerform` takes only `@Sendable` work, and the report values these
    /// closures read (view models holding closures, files to stage) are not marked `Sendable`
    /// though they are only read here.
    static func concurrently(_ iterations: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            let work = UncheckedWork(body: body)
            DispatchQueue.concurrentPerform(iterations: iterations) { work.body($0) }
        }
    }

    private struct UncheckedWork: @unchecked Sendable {
        let body: (Int) -> Void
    }

    /// `[make(0), make(1), … make(count - 1)]`, the chunks made concurrently straight into the
    /// one array: joining arrays made per chunk held every element twice for a moment (48 MB
    /// more at the peak of a 100,000-market page).
    static func elements<T>(_ count: Int, chunk: Int = defaultChunk, _ make: (Int) -> T) -> [T] {
        let chunk = max(1, chunk)
        guard count > chunk else { return (0..<count).map(make) }
        let chunks = (count + chunk - 1) / chunk
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            // Each chunk initializes only its own elements, and all are initialized before the
            // array is handed back.
            concurrently(chunks) { index in
                for position in index * chunk..<min(count, (index + 1) * chunk) {
                    (base + position).initialize(to: make(position))
                }
            }
            initialized = count
        }
    }

    /// `make` over the chunks of `0..<count` a batch at a time (`lanes` chunks made concurrently),
    /// each chunk's result handed to `consume` in order before the next batch is made: a large
    /// page's text is never held whole, only a batch of it.
    static func forEach<T>(
        _ count: Int, chunk: Int = defaultChunk, lanes: Int = 4, _ make: (Range<Int>) -> T, consume: (T) -> Void
    ) {
        let chunk = max(1, chunk)
        let batch = chunk * max(1, lanes)
        var start = 0
        while start < count {
            let end = min(count, start + batch)
            for part in map(end - start, chunk: chunk, { make($0.lowerBound + start..<$0.upperBound + start) }) {
                consume(part)
            }
            start = end
        }
    }

    /// A fixed array that threads fill at distinct indices. Each index is written once, by one
    /// thread, and nothing is read until `concurrentPerform` has returned, which orders those
    /// writes before the reads; so no lock is needed.
    private final class Slots<T>: @unchecked Sendable {
        // Memory of its own rather than an array: writing an array's element from several
        // threads goes through its uniqueness check and exclusive access to the array itself.
        private let storage: UnsafeMutablePointer<T?>
        private let count: Int

        init(count: Int) {
            self.count = count
            storage = .allocate(capacity: count)
            storage.initialize(repeating: nil, count: count)
        }

        deinit {
            storage.deinitialize(count: count)
            storage.deallocate()
        }

        func set(_ index: Int, _ value: T) {
            storage[index] = value
        }

        func values() -> [T] {
            UnsafeBufferPointer(start: storage, count: count).compactMap { $0 }
        }
    }
}
