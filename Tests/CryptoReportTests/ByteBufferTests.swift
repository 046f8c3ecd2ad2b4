import Foundation
import Testing

@testable import CryptoReport

/// `ByteBuffer`, the page writer's bytes, holds exactly what an array appended the same way holds.
@Suite("Byte buffer")
struct ByteBufferTests {
    /// Appends of every kind, in a seeded order: empty ones, single bytes, literals, strings
    /// (small, large, non-ASCII), arrays and raw pieces, far past the starting capacity.
    static func appendAll(seed: UInt64, steps: Int, to buffer: inout ByteBuffer) -> [UInt8] {
        var expected: [UInt8] = []
        var random = seed
        func next() -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: random >> 33)
        }
        let texts = ["", "a", "1 234,56\u{00A0}kr", "−12,5 %", String(repeating: "x", count: 300), "<&\"'>", "✕"]
        for step in 0..<steps {
            switch next() % 6 {
            case 0:
                let byte = UInt8(truncatingIfNeeded: step)
                buffer.append(byte)
                expected.append(byte)
            case 1:
                buffer += "</td>\n          <td class=\"num\">"
                expected += Array("</td>\n          <td class=\"num\">".utf8)
            case 2:
                let text = texts[next() % texts.count]
                buffer.append(text)
                expected += Array(text.utf8)
            case 3:
                let bytes = (0..<(next() % 5_000)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ step) }
                buffer.append(bytes)
                expected += bytes
            case 4:
                let bytes = (0..<(next() % 70)).map { UInt8(truncatingIfNeeded: $0 &+ step) }
                bytes.withUnsafeBytes { buffer.append($0) }
                expected += bytes
            default:
                buffer.append(UnsafeBufferPointer<UInt8>(start: nil, count: 0))
                [UInt8]().withUnsafeBytes { buffer.append($0) }
            }
        }
        return expected
    }

    @Test("appends grow the buffer and keep every byte in order", arguments: [0, 1, 63, 64, 65, 4_096])
    func growth(capacity: Int) {
        var buffer = ByteBuffer(capacity: capacity)
        let wasEmpty = buffer.isEmpty
        #expect(wasEmpty)
        let expected = Self.appendAll(seed: UInt64(capacity) + 1, steps: 600, to: &buffer)
        let (count, grownTo, text) = (buffer.count, buffer.capacity, buffer.text)
        let bytes = buffer.withUnsafeBytes { Array($0) }
        #expect(count == expected.count)
        #expect(grownTo >= count)
        #expect(bytes == expected)
        #expect(text == String(decoding: expected, as: UTF8.self))
    }

    @Test("after removeAll the buffer starts again, keeping its allocation")
    func chunkAndReuse() {
        var buffer = ByteBuffer(capacity: 16)
        let first = Self.appendAll(seed: 7, steps: 200, to: &buffer)
        let capacity = buffer.capacity
        buffer.removeAll()
        let (isEmpty, keptCapacity) = (buffer.isEmpty, buffer.capacity)
        #expect(isEmpty && keptCapacity == capacity)
        let second = Self.appendAll(seed: 8, steps: 200, to: &buffer)
        #expect(first != second)
        buffer.withUnsafeBytes { #expect(Array($0) == second) }
    }

    /// The figures' writers are generic over where they append (`ByteSink`): into a `ByteBuffer`
    /// they must write exactly what they write into an array, on every market of the sample with
    /// a month of history (trends, odd names) and in the Excel dialect's decimal comma.
    @Test("the report writers append the same bytes to a ByteBuffer as to an array")
    func writersAgree() throws {
        let report = try PageTemplateTests.withHistory("SEK", days: [1, 7, 30])
        #expect(report.rows.contains { $0.trend != nil })
        let comma = CSVRenderer.Style(.excel, localeIdentifier: "sv_SE")
        #expect(comma.decimalComma)
        var array: [UInt8] = []
        var buffer = ByteBuffer(capacity: 1)
        func both(_ write: (inout [UInt8]) -> Void, _ writeBuffer: (inout ByteBuffer) -> Void) {
            write(&array)
            writeBuffer(&buffer)
        }
        for (index, row) in report.rows.enumerated() {
            let last = index == report.rows.count - 1
            both({ JSONRenderer.MarketWriter.append(row, last: last, to: &$0) }, { JSONRenderer.MarketWriter.append(row, last: last, to: &$0) })
            for value in [row.price, row.open, row.spreadPercent, row.volume, row.trend?.change30d] {
                both({ comma.append(value, to: &$0) }, { comma.append(value, to: &$0) })
                both({ PlainNumber.append(value ?? 0, significantDigits: 8, to: &$0) }, { PlainNumber.append(value ?? 0, significantDigits: 8, to: &$0) })
            }
            if let at = row.updatedAt { both({ ReportDates.appendISO8601(at, to: &$0) }, { ReportDates.appendISO8601(at, to: &$0) }) }
            for text in [row.symbol, "a|b*c_\\`x", "\u{1}\"q\"\\", "✕ kr"] {
                both({ JSONRenderer.MarketWriter.appendString(text, to: &$0) }, { JSONRenderer.MarketWriter.appendString(text, to: &$0) })
                both({ CSVRenderer.appendText(text, separator: ";", to: &$0) }, { CSVRenderer.appendText(text, separator: ";", to: &$0) })
            }
        }
        let written = buffer.withUnsafeBytes { Array($0) }
        #expect(array.count > 100_000)
        #expect(written == array)
    }
}
