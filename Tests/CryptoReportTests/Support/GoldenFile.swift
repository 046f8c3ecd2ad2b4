import Foundation
import Testing

@testable import CryptoReport

/// A golden file in `Golden/`: what a report must be, byte for byte.
///
/// A difference is reported as `git diff --no-index` shows it (at most `diffLines` lines), as
/// swift-openapi-generator's file-based reference tests do, so a failure says what changed, not
/// only that 680 KB differ. `UPDATE_GOLDEN=1` rewrites the files instead.
enum GoldenFile {
    static let diffLines = 80

    static func check(_ text: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let text = name.hasSuffix(".html") ? withoutPageFiles(text) : text
        let url = Fixtures.goldenFolder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Fixtures.goldenFolder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        // Bytes, not String(contentsOf:), which drops the byte-order mark the excel dialect writes.
        let expected = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        guard text != expected else { return }
        Issue.record("\(name) differs from its golden file; UPDATE_GOLDEN=1 rewrites it.\n\(diff(expected: url, actual: text))", sourceLocation: sourceLocation)
    }

    /// A page with its stylesheet and script (`Templates/report.css`, `report.js`, the same in
    /// every page) named instead of written out: they are checked once, as the files they are,
    /// and a change to them rewrites no golden page. A page whose style or script is not the
    /// built-in one keeps it.
    static func withoutPageFiles(_ page: String) -> String {
        var page = page
        for name in ["report.css", "report.js"] {
            guard let file = EmbeddedTemplates.pageFiles[name], !file.isEmpty else { continue }
            page = page.replacingOccurrences(of: file, with: "/* Templates/\(name) */\n")
        }
        return page
    }

    /// The first `diffLines` lines of `git diff --no-index` between the golden file and `actual`.
    static func diff(expected url: URL, actual: String) -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let actualURL = folder.appendingPathComponent("actual-" + url.lastPathComponent)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: actualURL)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "diff", "--no-index", "--no-color", "-U1", url.path, actualURL.path]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            // Split at any line end: a CSV line ends in CR LF, one `Character`.
            let lines = String(decoding: data, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            let shown = lines.prefix(diffLines).map { $0.count > 300 ? $0.prefix(300) + "…" : $0 }.joined(separator: "\n")
            return lines.count > diffLines ? shown + "\n… \(lines.count - diffLines) more lines of diff" : shown
        } catch {
            return "(no diff: \(error))"
        }
    }
}

@Suite("Golden files say what differs")
struct GoldenFileTests {
    @Test("a difference is shown as a diff of the lines that changed")
    func diffShown() throws {
        let golden = Fixtures.goldenFolder.appendingPathComponent("sample-SEK.csv")
        var text = try String(contentsOf: golden, encoding: .utf8)
        let line = try #require(text.split(separator: "\r\n").dropFirst(5).first)
        text = text.replacingOccurrences(of: String(line), with: String(line) + "X")
        let diff = GoldenFile.diff(expected: golden, actual: text)
        #expect(diff.contains("\n-" + line.prefix(40)) && diff.contains("\n+" + line.prefix(40)), "\(diff)")
        #expect(diff.contains("@@ -5,3 +5,3 @@"), "the hunk names the line")
        #expect(diff.split(separator: "\n").count < 20)
    }
}
