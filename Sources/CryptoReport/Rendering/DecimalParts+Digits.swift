/// Digits of a `DecimalParts` for the writers, made without an intermediate array.
extension DecimalParts {
    /// The mantissa's digits, right-aligned at the end of `buffer` (64 bytes hold the most, 39);
    /// returns how many. No array is made, as `appendDigits` makes one.
    func writeDigits(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let split = chunks()
        var position = buffer.count
        func write(_ value: UInt64, width: Int) {
            var rest = value
            var written = 0
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                written += 1
            } while rest != 0 || written < width
        }
        if split.count > 2 { write(split.values.2, width: 19) }
        if split.count > 1 { write(split.values.1, width: 19) }
        write(split.values.0, width: 1)
        return buffer.count - position
    }

    /// `appendPlainText`'s bytes (the text `Decimal.description` gives), the digits made on the
    /// stack: the writers print every figure of every market this way.
    func appendPlain(to bytes: inout [UInt8]) {
        if isZero {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if isNegative { bytes.append(UInt8(ascii: "-")) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { scratch in
            let count = writeDigits(into: scratch)
            let digits = UnsafeBufferPointer(rebasing: scratch[(64 - count)...])
            if exponent >= 0 {
                bytes.append(contentsOf: digits)
                for _ in 0..<exponent { bytes.append(UInt8(ascii: "0")) }
                return
            }
            let fraction = -exponent
            if count > fraction {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[0..<(count - fraction)]))
                bytes.append(UInt8(ascii: "."))
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(count - fraction)...]))
            } else {
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "."))
                for _ in 0..<(fraction - count) { bytes.append(UInt8(ascii: "0")) }
                bytes.append(contentsOf: digits)
            }
        }
    }
}
