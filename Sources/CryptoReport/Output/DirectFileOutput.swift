import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A new file's bytes written past the page cache (`O_DIRECT`, where the file system takes it),
/// a block-aligned half mebibyte at a time, by a thread of its own while the next is made.
///
/// Every staged report is synced before the commit renames it, so its bytes reach the disk
/// during the run whatever we do. Written through the page cache, each byte was first copied
/// into freshly allocated cache pages — on the project's virtual machine, memory the host backs
/// only when it is first touched after the guest freed it, some microseconds a page: a fifth of
/// a 100,000-market run's CPU (`copy_folio_from_iter_atomic`, 345 MB of reports) — and the last
/// report's `fsync` then waited, alone at the end of the run, for its whole file to reach the
/// disk. Written directly, the disk takes each piece while the next is made, and the final
/// sync has little left to do. The writes are left to another thread because a direct write
/// returns only once the disk has the bytes: made in turn, a large report waited for its disk.
///
/// A file's first `directAfter` bytes (4 MiB: every file of a daily 450-market run) still go
/// through the page cache, up to a block boundary: for small files a writer thread and
/// synchronous device writes cost more than the cache pages (a 450-market run was 2-3 ms slower).
///
/// `O_DIRECT` needs aligned memory, lengths and file offsets, so the bytes are gathered in two
/// aligned buffers (one filled while the other is written); the last partial block is written
/// through the page cache, `O_DIRECT` cleared. Where a file system refuses `O_DIRECT` (when it is
/// set, or at a write: `EINVAL`), the bytes go through the page cache, as they did before. The
/// file's bytes are the same either way.
final class DirectFileOutput: @unchecked Sendable {
    /// Both the alignment and the unit of a direct write: a multiple of every logical block size
    /// Linux file systems use (512 or 4,096 bytes).
    static let blockSize = 4_096
    /// Half a mebibyte: the disk here takes 2 GB/s in direct writes of that size (1.1 GB/s at
    /// 256 KB, 2.5 at 1 MB), and the four buffers two lanes keep are pages the run faults in.
    static let defaultBufferSize = 1 << 19
    static let defaultDirectAfter = 1 << 22

    private let descriptor: Int32
    private let bufferSize: Int
    /// Writes go past the page cache now. Changed only by the thread writing at the time: the
    /// writer thread while a buffer is queued, the caller once none is.
    private var direct = false
    /// Writes are to go past the page cache once `directAfter` bytes are written.
    private var wantsDirect: Bool
    private let directAfter: Int
    /// Bytes written through the page cache before going direct.
    private var written = 0
    /// Some of the file was written past the page cache (for tests).
    private(set) var wroteDirectly = false
    /// The two buffers (direct writes only): the caller fills `buffers[current]`.
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    private var current = 0
    private var filled = 0
    private let condition = NSCondition()
    // Under `condition`:
    /// The full buffer the writer thread is writing or is to write.
    private var queued: Int?
    private var writerStarted = false
    private var finishing = false
    /// The first write's `errno`; nothing is written after it.
    private var failed: Int32 = 0

    /// Writes to `descriptor` (open for writing at offset 0): after its first `directAfter`
    /// bytes directly when `direct` and the file system lets `O_DIRECT` be set on it;
    /// `bufferSize` is rounded to a multiple of `blockSize`.
    init(descriptor: Int32, direct: Bool = true, bufferSize: Int = defaultBufferSize, directAfter: Int = defaultDirectAfter) {
        self.descriptor = descriptor
        self.bufferSize = max(Self.blockSize, bufferSize / Self.blockSize * Self.blockSize)
        wantsDirect = direct
        self.directAfter = max(0, directAfter)
    }

    deinit {
        for buffer in buffers { Self.spare.give(buffer) }
    }

    /// Buffers of the files written before, for the next ones: a run stages its files one after
    /// another on two lanes, and each new buffer's pages were faulted in afresh (2 MB a file).
    private static let spare = SpareBuffers()

    private final class SpareBuffers: @unchecked Sendable {
        private let lock = NSLock()
        private var buffers: [UnsafeMutableRawBufferPointer] = []

        func take(_ size: Int) -> UnsafeMutableRawBufferPointer {
            let kept = lock.withLock { buffers.firstIndex { $0.count == size }.map { buffers.remove(at: $0) } }
            return kept ?? .allocate(byteCount: size, alignment: DirectFileOutput.blockSize)
        }

        /// Keeps enough of the usual size for two files at once; frees the rest.
        func give(_ buffer: UnsafeMutableRawBufferPointer) {
            let kept = lock.withLock {
                guard buffers.count < 4, buffer.count == DirectFileOutput.defaultBufferSize else { return false }
                buffers.append(buffer)
                return true
            }
            if !kept { buffer.deallocate() }
        }
    }

    /// Appends `bytes` to the file: through the page cache at once, or once a buffer is full.
    func write(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        var offset = 0
        if buffers.isEmpty {
            // Through the page cache: all of it, or up to the first block boundary at or after
            // `directAfter` when the rest is to go direct.
            var count = bytes.count
            if wantsDirect, written + count > directAfter {
                let boundary = (max(directAfter, written) + Self.blockSize - 1) / Self.blockSize * Self.blockSize
                count = min(count, boundary - written)
            }
            if count > 0, failed == 0 { failed = writeAll(source, count) }
            written += count
            offset = count
            guard offset < bytes.count, failed == 0 else { return }
            // At a block boundary, with more to write: past the page cache from here, where the
            // file system takes it.
            wantsDirect = false
            if Self.setDirect(descriptor, true) {
                direct = true
                wroteDirectly = true
                buffers = (0..<2).map { _ in Self.spare.take(self.bufferSize) }
            } else {
                failed = writeAll(source + offset, bytes.count - offset)
                return
            }
        }
        while offset < bytes.count {
            guard let base = buffers[current].baseAddress else { return }
            let count = min(bytes.count - offset, bufferSize - filled)
            (base + filled).copyMemory(from: source + offset, byteCount: count)
            filled += count
            offset += count
            if filled == bufferSize {
                guard queue(current) else { return }
                current ^= 1
                filled = 0
            }
        }
    }

    /// Writes what is left once the writer thread is done, and lets that thread end (so it must
    /// be called); returns the first failure's `errno`, or 0.
    func finish() -> Int32 {
        condition.lock()
        while queued != nil { condition.wait() }
        finishing = true
        condition.broadcast()
        var failure = failed
        condition.unlock()
        guard failure == 0, filled > 0, !buffers.isEmpty, let base = buffers[current].baseAddress else { return failure }
        let whole = filled / Self.blockSize * Self.blockSize
        if whole > 0 { failure = writeAll(base, whole) }
        if failure == 0, filled > whole {
            // The last partial block through the page cache: a direct write is of whole blocks.
            if direct { failure = stopDirect() }
            if failure == 0 { failure = writeAll(base + whole, filled - whole) }
        }
        filled = 0
        condition.withLock { failed = failure }
        return failure
    }

    /// Hands the full buffer `index` to the writer thread once it has written the one before;
    /// false after a failed write.
    private func queue(_ index: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queued != nil { condition.wait() }
        guard failed == 0 else { return false }
        queued = index
        if !writerStarted {
            writerStarted = true
            let thread = Thread { [self] in writeQueued() }
            thread.start()
        }
        condition.broadcast()
        return true
    }

    /// The writer thread: writes each queued buffer until `finish`.
    private func writeQueued() {
        condition.lock()
        while true {
            if let index = queued, let base = buffers[index].baseAddress {
                condition.unlock()
                let failure = writeAll(base, bufferSize)
                condition.lock()
                if failed == 0 { failed = failure }
                queued = nil
                condition.broadcast()
            } else if finishing {
                break
            } else {
                condition.wait()
            }
        }
        condition.unlock()
    }

    /// `write(2)` until all of `count` bytes are written, or an `errno`; a direct write the file
    /// system refuses (`EINVAL`) is made again through the page cache, and so is all after it.
    private func writeAll(_ start: UnsafeRawPointer, _ count: Int) -> Int32 {
        var offset = 0
        while offset < count {
            let written = posixWrite(descriptor, start + offset, count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EINVAL && direct {
                    let failure = stopDirect()
                    if failure != 0 { return failure }
                    continue
                }
                return errno
            }
            offset += written
            // A short direct write leaves the file at an offset no later direct write could use.
            if direct, offset < count, offset % Self.blockSize != 0 {
                let failure = stopDirect()
                if failure != 0 { return failure }
            }
        }
        return 0
    }

    private func stopDirect() -> Int32 {
        direct = false
        return Self.setDirect(descriptor, false) ? 0 : errno
    }

    /// Sets or clears `O_DIRECT` on an open file; false where the system or file system has none.
    private static func setDirect(_ descriptor: Int32, _ on: Bool) -> Bool {
        guard let directFlag else { return false }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0 else { return false }
        return fcntl(descriptor, F_SETFL, on ? flags | directFlag : flags & ~directFlag) == 0
    }

    /// Linux's `O_DIRECT`, which Swift's Glibc module does not export (glibc defines it only
    /// under `_GNU_SOURCE`); its value depends on the architecture. Nil elsewhere: plain writes.
    private static var directFlag: Int32? {
        #if os(Linux) && (arch(x86_64) || arch(i386))
            0o40000
        #elseif os(Linux) && (arch(arm64) || arch(arm))
            0o200000
        #else
            nil
        #endif
    }
}

#if canImport(Glibc)
    private let posixWrite = Glibc.write
#elseif canImport(Darwin)
    private let posixWrite = Darwin.write
#endif
