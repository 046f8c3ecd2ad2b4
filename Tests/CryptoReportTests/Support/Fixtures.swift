import CryptoReport
import Foundation

/// Paths and data the tests share. Everything lives in the repository; nothing reads ../shared.
enum Fixtures {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let testsFolder = repositoryRoot.appendingPathComponent("Tests/CryptoReportTests")
    static let goldenFolder = testsFolder.appendingPathComponent("Golden")
    static let fixturesFolder = testsFolder.appendingPathComponent("Fixtures")
    static let samplesFolder = repositoryRoot.appendingPathComponent("Samples")

    static let tickersURL = samplesFolder.appendingPathComponent("tickers-24hr-2022-11-22.json")
    static let ratesURL = samplesFolder.appendingPathComponent("eurofxref-daily-2022-11-21.xml")
    static let historyURL = fixturesFolder.appendingPathComponent("eurofxref-hist-90d-2025-02-25.xml")

    static func data(_ url: URL) throws -> Data { try Data(contentsOf: url) }
    static var tickers: Data { get throws { try data(tickersURL) } }
    static var rates: Data { get throws { try data(ratesURL) } }

    /// The report time of every golden file.
    static let reportTime = Date(timeIntervalSince1970: 1_669_100_400)  // 2022-11-22 07:00 UTC
    /// Shortly after the WazirX capture: 2022-11-22 01:00 UTC.
    static let captureTime = Date(timeIntervalSince1970: 1_669_078_800)

    static func payload(_ source: DataSource, _ data: Data, location: String = "fixture") -> FetchedPayload {
        FetchedPayload(source: source, location: .file(location), data: data, fetchedAt: reportTime)
    }

    /// A ticker array from JSON object literals, for small hand-made cases.
    static func tickerJSON(_ objects: [String]) -> Data {
        Data(("[" + objects.joined(separator: ",") + "]").utf8)
    }

    static func ticker(
        _ symbol: String, base: String, quote: String, last: String, open: String = "1", high: String? = nil,
        low: String? = nil, volume: String = "1", bid: String = "1", ask: String = "1", at: String = "1669078292000"
    ) -> String {
        // The 24 h range holds the last price unless a test says otherwise.
        let high = high ?? last, low = low ?? last
        return """
            {"symbol":"\(symbol)","baseAsset":"\(base)","quoteAsset":"\(quote)","openPrice":"\(open)","lowPrice":"\(low)",\
            "highPrice":"\(high)","lastPrice":"\(last)","volume":"\(volume)","bidPrice":"\(bid)","askPrice":"\(ask)","at":\(at)}
            """
    }

    /// An ECB daily document with the given rates.
    static func ecbXML(date: String = "2022-11-21", rates: [(String, String)]) -> Data {
        let cubes = rates.map { "<Cube currency='\($0.0)' rate='\($0.1)'/>" }.joined(separator: "\n")
        return Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
            <gesmes:subject>Reference rates</gesmes:subject>
            <Cube><Cube time='\(date)'>
            \(cubes)
            </Cube></Cube>
            </gesmes:Envelope>
            """.utf8)
    }

    static func decimal(_ text: String) -> Decimal {
        Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? .nan
    }
}

/// A fresh temporary folder, removed when the value goes away.
final class TemporaryFolder: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cryptoreport-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Visible report files; the output folder's `.cryptoreport.lock` and `history.sqlite` are not
    /// reports, nor are the `latest` copies and `index.html` (SharedFolderTests looks at those).
    func contents(_ subfolder: String? = nil) -> [String] {
        let folder = subfolder.map { url.appendingPathComponent($0) } ?? url
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            !$0.hasPrefix(".") && !$0.hasPrefix("history.sqlite") && !$0.hasPrefix("cryptoreport-latest-") && $0 != "index.html"
        }.sorted()
    }

    /// Everything visible in the folder, `latest` copies and index included.
    func allContents(_ subfolder: String? = nil) -> [String] {
        let folder = subfolder.map { url.appendingPathComponent($0) } ?? url
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") && !$0.hasPrefix("history.sqlite") }
            .sorted()
    }
}
