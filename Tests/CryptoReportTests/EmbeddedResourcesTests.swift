import Foundation
import Testing

@testable import CryptoReport

/// The binary carries copies of Templates/ and Samples/, made at every build by the
/// `EmbedResources` plugin: they are the files, byte for byte.
@Suite("Built-in copies match the repository files")
struct EmbeddedResourcesTests {
    @Test("templates", arguments: ["report.md", "report.html", "index.html"])
    func templates(name: String) throws {
        let file = try String(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Templates/\(name).mustache"), encoding: .utf8)
        #expect(EmbeddedTemplates.files[name] == file, "the EmbedResources plugin's copy differs")
    }

    @Test("the page's stylesheet and script", arguments: ["report.css", "report.js"])
    func pageFiles(name: String) throws {
        let file = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Templates/\(name)"), encoding: .utf8)
        #expect(!file.isEmpty)
        #expect(EmbeddedTemplates.pageFiles[name] == file, "the EmbedResources plugin's copy differs")
    }

    /// They are inserted as they are: a Mustache tag in them would reach the page unrendered.
    @Test("the page files hold no Mustache tags", arguments: ["report.css", "report.js"])
    func pageFilesAreNotTemplates(name: String) {
        #expect(EmbeddedTemplates.pageFiles[name]?.contains("{{") == false)
    }

    @Test("the sample, byte for byte")
    func sample() throws {
        #expect(EmbeddedSample.tickers == (try Fixtures.tickers), "the EmbedResources plugin's copy differs")
        #expect(EmbeddedSample.rates == (try Fixtures.rates), "the EmbedResources plugin's copy differs")
    }

    @Test("the sample is the real data of SOURCES.md: 450 tickers in four quote assets")
    func sampleContents() throws {
        let tickers = try TickerDecoder().decode(EmbeddedSample.tickers).tickers
        let quotes = Dictionary(grouping: tickers, by: \.quoteAsset).mapValues(\.count)
        #expect(quotes == ["usdt": 265, "inr": 139, "btc": 27, "wrx": 19])
    }
}
