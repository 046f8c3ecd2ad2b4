import Foundation
import Testing

@testable import CryptoReport

#if canImport(Glibc)
    import Glibc
#endif

/// The scale the README promises: up to 20,000 markets a run, in time and memory that grow
/// linearly with the markets. The bounds are generous (a machine twice as busy passes); what
/// they catch is a quadratic step or a copy of every market per market.
@Suite("The supported scale: 20,000 markets", .serialized)
struct SupportedScaleTests {
    /// `count` tickers made from the real capture, as `synth-tickers.py` makes them: later copies
    /// get new base assets (`btc1`, `btc2` …) and so new symbols, every other field as sent.
    static func tickers(_ count: Int) throws -> Data {
        guard let real = try JSONSerialization.jsonObject(with: try Fixtures.tickers) as? [[String: Any]] else { return Data() }
        var rows: [[String: Any]] = []
        var copy = 0
        while rows.count < count {
            for ticker in real where rows.count < count {
                var row = ticker
                if copy > 0, let base = ticker["baseAsset"] as? String, let quote = ticker["quoteAsset"] as? String {
                    row["baseAsset"] = base + String(copy)
                    row["symbol"] = base + String(copy) + quote
                }
                rows.append(row)
            }
            copy += 1
        }
        return try JSONSerialization.data(withJSONObject: rows)
    }

    /// The binary's wall time and peak memory for `count` markets, every format, SEK.
    static func run(_ count: Int, in folder: TemporaryFolder) throws -> (seconds: Double, megabytes: Double, rows: Int) {
        let file = folder.url.appendingPathComponent("t\(count).json")
        try tickers(count).write(to: file)
        let process = Process()
        process.executableURL = ExecutableTests.binary
        process.arguments = [
            "--tickers-url", file.path, "--ecb-url", Fixtures.ratesURL.path, "--currency", "SEK", "--markets", "all", "--format", "all",
            "--output", folder.url.appendingPathComponent("o\(count)").path, "--no-history", "--quiet", "--no-config",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let started = Date()
        try process.run()
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(process.processIdentifier, &status, 0, &usage)
        let seconds = Date().timeIntervalSince(started)
        let csv = try String(contentsOf: folder.url.appendingPathComponent("o\(count)/cryptoreport-2022-11-22-SEK.csv"), encoding: .utf8)
        return (seconds, Double(usage.ru_maxrss) / 1024, csv.split(separator: "\r\n").count - 1)
    }

    @Test("20,000 synthetic markets: every one reported, time within 25 times 2,000's, memory under 400 MB", .timeLimit(.minutes(3)))
    func twentyThousand() throws {
        let folder = try TemporaryFolder()
        let small = try Self.run(2_000, in: folder)
        let large = try Self.run(20_000, in: folder)
        #expect(large.rows > 19_000 && small.rows > 1_900, "\(small.rows), \(large.rows) rows")
        // Linear: ten times the markets take about ten times as long; a quadratic step, a hundred.
        #expect(large.seconds < 25 * max(small.seconds, 0.05), "\(small.seconds) s for 2,000, \(large.seconds) s for 20,000")
        #expect(large.megabytes < 400, "\(large.megabytes) MB")
    }
}
