import Foundation
import Mustache
import Testing

@testable import CryptoReport

/// Bidirectional controls, zero-width characters and line separators from the API reach no format.
@Suite("Format and separator characters from the API")
struct SourceTextTests {
    /// Cf (U+202E right-to-left override, U+200B zero-width space, U+2066 isolate), Zl, Zp.
    static let unsafe: [Unicode.Scalar] = ["\u{202E}", "\u{200B}", "\u{2066}", "\u{2028}", "\u{2029}"]

    static func containsUnsafe(_ text: String) -> Bool {
        text.unicodeScalars.contains { unsafe.contains($0) }
            || ["\\u202e", "\\u200b", "\\u2066", "\\u2028", "\\u2029"].contains { text.lowercased().contains($0) }
    }

    @Test("identifiers holding them are refused; quoted text has them replaced")
    func decoder() throws {
        let rows = [
            Fixtures.ticker("\u{202E}gnp.exe", base: "evil", quote: "usdt", last: "2"),
            Fixtures.ticker("zwsusdt", base: "zw\u{200B}s", quote: "usdt", last: "2"),
            Fixtures.ticker("line\u{2028}usdt", base: "line", quote: "usdt", last: "2"),
            Fixtures.ticker("para\u{2029}usdt", base: "para", quote: "usdt", last: "2"),
            Fixtures.ticker("okusdt", base: "ok", quote: "usdt", last: "2", open: "\u{202E}1\u{2028}"),
            // A combining mark after a quote or `<`: Mustache's escaping would let them through.
            Fixtures.ticker("q\\\"\u{301}onmouseover=alert(1)usdt", base: "q", quote: "usdt", last: "2"),
            Fixtures.ticker("lt<\u{20D2}usdt", base: "lt", quote: "usdt", last: "2"),
            // A mark after a letter is a name like any other.
            Fixtures.ticker("cafe\u{301}usdt", base: "cafe\u{301}", quote: "usdt", last: "2"),
        ]
        let result = try TickerDecoder().decode(Fixtures.tickerJSON(rows))
        #expect(result.tickers.map(\.symbol) == ["okusdt", "cafe\u{301}usdt"])
        #expect(result.diagnostics.count == 7)
        for diagnostic in result.diagnostics { #expect(!Self.containsUnsafe(diagnostic.description), "\(diagnostic)") }
        #expect(result.diagnostics.map(\.message).contains("okusdt: openPrice \"1 \" is not a non-negative number; left empty"))
        #expect(SourceText.printable("a\u{202E}b\u{2028}c\u{0007}d") == "ab c d")
    }

    /// Found by `make fuzz-smoke`: a value quoted in a warning opened with a mark, which joined
    /// the opening quote (`lastPrice "\u{59A}-20"`).
    @Test("a mark that would join a quote or `<` in a warning is dropped, or shown as an escape")
    func marksAfterMarkup() throws {
        let rows = [
            Fixtures.ticker("markusdt", base: "mark", quote: "usdt", last: "\u{059A}-20"),
            Fixtures.ticker("ltusdt", base: "lt", quote: "usdt", last: "2", open: "x<\u{301}1"),
            Fixtures.ticker("okusdt", base: "ok", quote: "usdt", last: "2", open: "e\u{301}"),
        ]
        let result = try TickerDecoder().decode(Fixtures.tickerJSON(rows))
        let notes = result.diagnostics.map(\.message)
        #expect(notes.contains { $0.hasPrefix("skipped ") && $0.contains("lastPrice \"-20\" ") }, "\(notes)")
        #expect(notes.contains("ltusdt: openPrice \"x<1\" is not a non-negative number; left empty"), "\(notes)")
        // A mark after a letter is text like any other.
        #expect(notes.contains("okusdt: openPrice \"e\u{301}\" is not a non-negative number; left empty"), "\(notes)")
        for note in notes { #expect(!SourceText.containsUnsafe(note), "\(note)") }
        #expect(SourceText.printable("\u{301}a", quoted: true) == "a")
        #expect(SourceText.printable("\u{301}\u{301}a", quoted: true) == "a")
        #expect(SourceText.printable("\u{200D}\u{301}a", quoted: true) == "a")
        #expect(SourceText.printable("x<\u{200B}\u{301}1") == "x<1")
        #expect(SourceText.printable("\u{301}a") == "\u{301}a")
        #expect(SourceText.escaped("--currency \"\u{301}SEK") == "--currency \"\\u{301}SEK")
        #expect(!SourceText.containsUnsafe(SourceText.escaped("a<\u{20D2}b\"\u{301}")))
    }

    /// Scalars that Swift's grapheme breaking joins to a quote or `<` though they are no marks:
    /// emoji skin tones, Thai and Lao AM (spacing marks by exception) and letters that join the
    /// character after them (Malayalam dot reph, Sharada, Soyombo).
    static let joiners: [Unicode.Scalar] = ["\u{1F3FB}", "\u{1F3FF}", "\u{E33}", "\u{EB3}", "\u{D4E}", "\u{111C2}", "\u{11A84}"]

    /// What a page made with the user's own template does with a value: swift-mustache escapes
    /// whole characters, so a markup character hidden in one would reach the page raw.
    static func rawMarkupAfterMustache(_ value: String) throws -> Bool {
        let page = try MustacheTemplate(string: "{{value}}").render(["value": value])
        return page.unicodeScalars.contains { "<>\"'".unicodeScalars.contains($0) }
    }

    @Test("whatever joins a markup character is refused in identifiers and dropped from quoted text")
    func joinedMarkup() throws {
        // The test's premise: each of these does hide the markup from swift-mustache.
        for joiner in Self.joiners {
            let text =
                joiner.properties.isGraphemeExtend || joiner.properties.isEmojiModifier
                    || ["\u{E33}", "\u{EB3}"].contains(joiner) ? "\"\(joiner)" : "\(joiner)\""
            #expect(try Self.rawMarkupAfterMustache(text), "\(text.debugDescription)")
            #expect(SourceText.containsUnsafe(text), "\(text.debugDescription)")
            #expect(!(try Self.rawMarkupAfterMustache(SourceText.printable(text))), "\(text.debugDescription)")
            #expect(!(try Self.rawMarkupAfterMustache(SourceText.escaped(text))), "\(text.debugDescription)")
        }
        #expect(SourceText.printable("x\"\u{1F3FB}y") == "x\"y")
        #expect(SourceText.printable("x\u{D4E}<y") == "x<y")
        #expect(SourceText.escaped("x\u{D4E}<y") == "x\\u{D4E}<y")
        // Between quotes, a joining letter at the end would take the closing one.
        #expect(SourceText.printable("ab\u{D4E}", quoted: true) == "ab")
        #expect(SourceText.printable("ab\u{D4E}") == "ab\u{D4E}")
        // Next to other characters they are text like any other.
        #expect(!SourceText.containsUnsafe("\u{1F44D}\u{1F3FB} \u{E01}\u{E33} \u{D4E}\u{D15}"))

        let rows = [
            Fixtures.ticker("tone\\\"\u{1F3FB}usdt", base: "tone", quote: "usdt", last: "2"),
            Fixtures.ticker("reph\u{D4E}<usdt", base: "reph", quote: "usdt", last: "2"),
            Fixtures.ticker("okusdt", base: "ok", quote: "usdt", last: "2", open: "1\u{D4E}"),
        ]
        let result = try TickerDecoder().decode(Fixtures.tickerJSON(rows))
        #expect(result.tickers.map(\.symbol) == ["okusdt"])
        for note in result.diagnostics.map(\.message) {
            #expect(!SourceText.containsUnsafe(note), "\(note)")
            #expect(!(try Self.rawMarkupAfterMustache(note.replacingOccurrences(of: "\"", with: ""))), "\(note)")
        }
        #expect(result.diagnostics.map(\.message).contains("okusdt: openPrice \"1\" is not a non-negative number; left empty"))
    }

    /// Every scalar Swift would join to a markup character, found by asking Swift, not a list.
    @Test("no scalar that joins a markup character passes the refusal or stays in printable text")
    func everyScalar() throws {
        var joined = 0
        for value in 0...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), !SourceText.isUnsafe(scalar) else { continue }
            for markup in "<>&\"'".unicodeScalars {
                for pair in [[markup, scalar], [scalar, markup]] {
                    let text = String(String.UnicodeScalarView(pair))
                    guard text.count == 1 else { continue }
                    joined += 1
                    #expect(SourceText.containsUnsafe(text), "\(text.debugDescription)")
                    #expect(!SourceText.printable(text).contains(where: SourceText.hidesMarkup), "\(text.debugDescription)")
                }
            }
        }
        // Marks alone are some two thousand scalars after each of five markup characters.
        #expect(joined > 10_000)
    }

    @Test("the issue's case end to end: \\u202egnp.exe reaches no format, no alert and no warning")
    func everyFormat() throws {
        let folder = try TemporaryFolder()
        let sample = try String(contentsOf: Fixtures.tickersURL, encoding: .utf8)
        let hostile = [
            Fixtures.ticker("\u{202E}gnp.exe", base: "gnp", quote: "usdt", last: "2"),
            Fixtures.ticker("sep\u{2029}usdt", base: "sep", quote: "usdt", last: "2"),
            Fixtures.ticker("zwjusdt", base: "z\u{200D}w", quote: "usdt", last: "2"),
            Fixtures.ticker("quoteusdt", base: "quote", quote: "usdt", last: "2", open: "\u{202E}x"),
        ]
        let body = "[" + hostile.joined(separator: ",") + "," + sample.drop(while: { $0 != "[" }).dropFirst()
        try Data(body.utf8).write(to: folder.url.appendingPathComponent("t.json"))
        let run = try ExecutableTests.run(
            [
                "--tickers-url", "t.json", "--ecb-url", Fixtures.ratesURL.path, "--output", "out", "--markets", "all", "--format", "all",
                "--alert", "any move 10 %", "--no-history",
            ], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!Self.containsUnsafe(run.stderr) && !Self.containsUnsafe(run.stdout))
        #expect(run.stderr.contains("skipped ticker #1: no symbol, or not a plain string"))
        let files = folder.contents("out")
        #expect(files.count == 5, "four reports and the alerts file: \(files)")
        for name in files {
            let text = try String(contentsOf: folder.url.appendingPathComponent("out/" + name), encoding: .utf8)
            #expect(!Self.containsUnsafe(text), "\(name)")
            #expect(!text.contains("gnp.exe") && !text.contains("exe.gnp"), "\(name)")
        }
    }
}
