import Foundation
import Testing

@testable import CryptoReport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reports written past the page cache (`DirectFileOutput`) hold exactly the bytes handed to it,
/// whatever the pieces' sizes against the blocks and buffers.
@Suite("Direct file output")
struct DirectFileOutputTests {
    /// Bytes that differ from position to position, so a piece written twice, skipped or out of
    /// order shows.
    static func bytes(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { (index: Int) -> UInt8 in
            let mixed: Int = (index &* 31) ^ (index >> 9)
            return UInt8(truncatingIfNeeded: mixed &+ seed)
        }
    }

    /// Writes `pieces` through a `DirectFileOutput` into a new file; the file's bytes, and whether
    /// some went past the page cache.
    static func write(_ pieces: [[UInt8]], direct: Bool, bufferSize: Int, directAfter: Int, in folder: TemporaryFolder) throws -> (Data, Bool) {
        let path = folder.url.appendingPathComponent(UUID().uuidString).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        #expect(descriptor >= 0)
        let output = DirectFileOutput(descriptor: descriptor, direct: direct, bufferSize: bufferSize, directAfter: directAfter)
        for piece in pieces { piece.withUnsafeBytes { output.write($0) } }
        #expect(output.finish() == 0)
        let wasDirect = output.wroteDirectly
        #expect(close(descriptor) == 0)
        return (try Data(contentsOf: URL(fileURLWithPath: path)), wasDirect)
    }

    /// Whether the folder's file system takes `O_DIRECT`, by its type in `/proc/mounts` (ext4,
    /// XFS and Btrfs do: where CI and the project's machine keep their temporary files).
    static func takesDirectWrites(_ folder: TemporaryFolder) -> Bool {
        #if os(Linux)
            guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return false }
            let path = folder.url.resolvingSymlinksInPath().path
            // The mount the folder is under: the longest mount point that is a prefix of its path.
            var best: (point: String, type: String)?
            for line in mounts.split(separator: "\n") {
                let fields: [String] = line.split(separator: " ").map(String.init)
                guard fields.count > 2 else { continue }
                let point = fields[1]
                let under = path == point || point == "/" || path.hasPrefix(point + "/")
                if under, point.count > (best?.point.count ?? -1) { best = (point, fields[2]) }
            }
            return ["ext4", "xfs", "btrfs"].contains(best?.type ?? "")
        #else
            return false
        #endif
    }

    @Test(
        "every size around the blocks and buffers, in one piece or many, direct from the start or after 5,000 bytes",
        arguments: [0, 1, 4_095, 4_096, 4_097, 8_192, 8_193, 3 * 8_192 + 123, 100_000], [0, 5_000])
    func sizes(total: Int, directAfter: Int) throws {
        let folder = try TemporaryFolder()
        let expected = Self.bytes(total, seed: total)
        // One piece; pieces of odd sizes (1, 2, 3 … bytes, then a large one); pieces with empty ones between.
        var odd: [[UInt8]] = []
        var offset = 0
        var size = 1
        while offset < total {
            let end = min(total, offset + (size % 7 == 0 ? 9_000 : size))
            odd.append(Array(expected[offset..<end]))
            odd.append([])
            offset = end
            size += 1
        }
        for pieces in [[expected], odd] {
            for direct in [true, false] {
                let (written, wasDirect) = try Self.write(pieces, direct: direct, bufferSize: 8_192, directAfter: directAfter, in: folder)
                #expect(written == Data(expected))
                // Direct from the first block boundary at or after `directAfter`, when there is more.
                let boundary = (directAfter + 4_095) / 4_096 * 4_096
                #expect(wasDirect == (direct && Self.takesDirectWrites(folder) && total > boundary))
            }
        }
    }

    @Test("a write the file refuses is reported, through the page cache or past it, and nothing is written after it", arguments: [false, true])
    func failedWrite(direct: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("read-only").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        // Open for reading only: every write(2) fails with EBADF.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let output = DirectFileOutput(descriptor: descriptor, direct: direct, bufferSize: 8_192, directAfter: 0)
        // Three buffers' worth: the direct path hands full buffers to its writer thread.
        Self.bytes(3 * 8_192 + 100, seed: 7).withUnsafeBytes { output.write($0) }
        #expect(output.finish() == EBADF)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
    }

    @Test("a report staged by the real file system holds its pieces' bytes")
    func staged() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("staged").path
        let pieces = (0..<16).map { Self.bytes(($0 * 197_003) % 600_000, seed: $0) }
        #expect(POSIXCommitFileSystem().createSynced(path) { write in
            for piece in pieces { piece.withUnsafeBytes(write) }
        } == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(pieces.joined()))
        #expect(POSIXCommitFileSystem().createSynced(path) { _ in } == EEXIST)
    }
}
