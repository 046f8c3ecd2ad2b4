import Foundation
import Testing

@testable import CryptoReport

/// Buffers of 4 MiB and more are asked for huge pages (`HugePages`): a hint that must change
/// nothing they hold, on the three paths that give it.
@Suite("Large buffers on huge pages")
struct HugePagesTests {
    @Test("a large file reads the bytes Data(contentsOf:) reads, at and around the threshold", arguments: [HugePages.threshold - 1, HugePages.threshold, 5_000_001])
    func largeFile(size: Int) throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("tickers.json")
        var random = SystemRandomNumberGenerator()
        let bytes = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &random) })
        try bytes.write(to: file)
        #expect(try LocalFileReader().contents(of: file.path, source: .tickers) == bytes)
        #expect((LocalFileReader.readLarge(file.path) != nil) == (size >= HugePages.threshold))
    }

    @Test("a large array made in chunks holds what one core makes")
    func largeArray() {
        let count = 1_000_003
        #expect(ParallelChunks.elements(count, chunk: 4096) { $0 &* 7 } == (0..<count).map { $0 &* 7 })
    }

    @Test("a byte buffer grown past the threshold keeps every byte")
    func largeBuffer() {
        var buffer = ByteBuffer()
        var expected: [UInt8] = []
        for step in 0..<1_300_000 {
            let piece = "\(step),"
            buffer.append(piece)
            expected += Array(piece.utf8)
        }
        #expect(expected.count > 2 * HugePages.threshold)
        #expect(buffer.withUnsafeBytes { Array($0) } == expected)
    }
}
