/// Bytes appended at the end of one growing allocation, for the CSV and JSON writers: an append
/// is a capacity check and a copy, made where it is called.
///
/// Written by hand because `[UInt8].append(contentsOf:)` is a call of its own that first checks
/// that the array's storage is not shared, for each of a report's many short cells.
/// Noncopyable, so the storage has one owner and needs no check.
struct ByteBuffer: ByteSink, ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int = 0) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toAtLeast: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ start: UnsafePointer<UInt8>, count added: Int) {
        if added > capacity - count { grow(toAtLeast: count + added) }
        (base + count).update(from: start, count: added)
        count += added
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        append(start, count: bytes.count)
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        append(bytes.bindMemory(to: UInt8.self))
    }

    /// A `String`'s UTF-8 (`ByteSink.append(utf8:)`).
    mutating func append(_ text: String) {
        append(utf8: text)
    }

    /// Forgets the bytes, keeping the allocation.
    mutating func removeAll() {
        count = 0
    }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    var text: String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    /// At least doubles, so that appends cost a constant on average.
    @inline(never)
    private mutating func grow(toAtLeast minimum: Int) {
        let newCapacity = max(minimum, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
