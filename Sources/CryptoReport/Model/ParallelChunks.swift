/// Per-market work split into fixed chunks that the machine's cores make at once, put back
/// together in the chunks' order.
///
/// Formatting a market's figures and writing its row and detail depend on that market alone,
/// and were the larger part of a big run on one core while the other idled. The chunks are cut
/// by position, never by which thread is free, so the result is the same bytes whatever the
/// scheduling. Written by hand: no library gives the ordered, memory-bounded join, and the
/// threads are `WorkerPool`'s (why not Dispatch's, there).
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

    /// `body(0)`, `body(1)`, … `body(iterations - 1)` on the machine's cores (`WorkerPool`),
    /// returning once all have run. The caller promises that the iterations touch disjoint state
    /// or lock what they share: the report values these closures read (view models holding
    /// closures, files to stage) are not marked `Sendable` though they are only read here.
    static func concurrently(_ iterations: Int, _ body: (Int) -> Void) {
        guard iterations > 1 else {
            if iterations == 1 { body(0) }
            return
        }
        withoutActuallyEscaping(body) { body in
            WorkerPool.shared.perform(Iterations(count: iterations, body: body))
        }
    }

    /// `body(0)` on another thread and `body(1)` on this one, returning once both have run: two
    /// lanes of work that use `concurrently` themselves (the reports staged two at a time). When
    /// one lane is done, its thread helps make the other's chunks. Were no other thread free,
    /// this one would run both in turn.
    static func twoLanes(_ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            WorkerPool.shared.perform(TwoLanes(body: body))
        }
    }

    /// Iterations taken in order by whichever thread is free.
    private final class Iterations: WorkerPool.Job {
        let count: Int
        let body: (Int) -> Void
        private var next = 0
        private var unfinished: Int

        init(count: Int, body: @escaping (Int) -> Void) {
            self.count = count
            self.body = body
            unfinished = count
        }

        override func claim(byCaller: Bool) -> Int? {
            guard next < count else { return nil }
            next += 1
            return next - 1
        }

        override func run(_ part: Int) { body(part) }
        override func finish(_ part: Int) { unfinished -= 1 }
        override var isDone: Bool { unfinished == 0 }
    }

    /// Two parts: the caller takes lane 1 at once, leaving lane 0 to another thread.
    private final class TwoLanes: WorkerPool.Job {
        let body: (Int) -> Void
        private var taken = [false, false]
        private var unfinished = 2

        init(body: @escaping (Int) -> Void) {
            self.body = body
        }

        override func claim(byCaller: Bool) -> Int? {
            let order = byCaller ? [1, 0] : [0, 1]
            guard let lane = order.first(where: { !taken[$0] }) else { return nil }
            taken[lane] = true
            return lane
        }

        override func run(_ part: Int) { body(part) }
        override func finish(_ part: Int) { unfinished -= 1 }
        override var isDone: Bool { unfinished == 0 }
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
            HugePages.advise(UnsafeMutableRawPointer(base), count: count * MemoryLayout<T>.stride)
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

    /// `make` over the chunks of `0..<count` on every core, each chunk's result handed to
    /// `consume` in order, by one thread at a time, while the chunks after it are made: at most
    /// `ahead` chunks are made and not yet consumed, so a large page's text is never held whole.
    /// Consuming (appending to the page and writing it out) was a part that made nothing while
    /// it ran when the chunks were made a batch at a time.
    static func forEach<T>(
        _ count: Int, chunk: Int = defaultChunk, ahead: Int = 8, _ make: (Range<Int>) -> T, consume: (T) -> Void
    ) {
        let chunk = max(1, chunk)
        let chunks = (count + chunk - 1) / chunk
        if chunks <= 1 {
            if count > 0 { consume(make(0..<count)) }
            return
        }
        withoutActuallyEscaping(make) { make in
            withoutActuallyEscaping(consume) { consume in
                WorkerPool.shared.perform(
                    Ordered(chunks: chunks, ahead: max(1, ahead), make: { make($0 * chunk..<min(count, ($0 + 1) * chunk)) }, consume: consume))
            }
        }
    }

    /// Chunks made by any thread, at most `ahead` beyond the next to consume, and consumed in
    /// order by one thread at a time. Part `n` makes chunk `n`; part -1 consumes the next.
    private final class Ordered<T>: WorkerPool.Job {
        private let chunks: Int
        private let ahead: Int
        private let make: (Int) -> T
        private let consume: (T) -> Void
        /// A ring of `ahead` slots: chunk `n` in slot `n % ahead`. A slot is written by the part
        /// that made its chunk, outside the lock, and read only once that part has finished.
        private let slots: UnsafeMutablePointer<T?>
        private var ready: [Bool]
        private var nextToMake = 0
        private var nextToConsume = 0
        private var consuming: T?
        private var isConsuming = false

        init(chunks: Int, ahead: Int, make: @escaping (Int) -> T, consume: @escaping (T) -> Void) {
            self.chunks = chunks
            self.ahead = ahead
            self.make = make
            self.consume = consume
            slots = .allocate(capacity: ahead)
            slots.initialize(repeating: nil, count: ahead)
            ready = Array(repeating: false, count: ahead)
        }

        deinit {
            slots.deinitialize(count: ahead)
            slots.deallocate()
        }

        override func claim(byCaller: Bool) -> Int? {
            let slot = nextToConsume % ahead
            if !isConsuming, nextToConsume < chunks, ready[slot] {
                isConsuming = true
                ready[slot] = false
                consuming = slots[slot].take()
                return -1
            }
            guard nextToMake < chunks, nextToMake < nextToConsume + ahead else { return nil }
            nextToMake += 1
            return nextToMake - 1
        }

        override func run(_ part: Int) {
            if part < 0 {
                if let value = consuming { consume(value) }
            } else {
                slots[part % ahead] = make(part)
            }
        }

        override func finish(_ part: Int) {
            if part < 0 {
                consuming = nil
                isConsuming = false
                nextToConsume += 1
            } else {
                ready[part % ahead] = true
            }
        }

        override var isDone: Bool { nextToConsume == chunks }
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
