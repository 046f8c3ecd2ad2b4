import Foundation
import Testing

/// The README and the chapters in docs/ show real output: each example must stay the output of the
/// command it names, and each relative link must lead to a file.
///
/// An example is a line ending in "`cryptoreport ARGS`:", then a blank line, then a ``` block
/// holding exactly what the command prints on standard output (CRLF read as LF), with no
/// configuration file. ARGS are split on spaces, so the convention is only for commands without
/// quoting.
@Suite("The documentation's examples and links", .serialized)
struct DocumentationExamplesTests {
    struct Example: CustomStringConvertible {
        var file: String
        var line: Int
        var arguments: [String]
        var output: String

        var description: String { "\(file), line \(line): cryptoreport \(arguments.joined(separator: " "))" }
    }

    /// README.md and every docs/*.md, as paths from the repository's root.
    static func documents() throws -> [String] {
        let docs = Fixtures.repositoryRoot.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path)
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    static func lines(of path: String) throws -> [String] {
        let text = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
        return text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
    }

    /// The examples of one document, in order.
    static func examples(in path: String) throws -> [Example] {
        let lines = try Self.lines(of: path)
        let marker = "`cryptoreport "
        var found: [Example] = []
        var index = 0
        while index + 2 < lines.count {
            let line = lines[index]
            if line.hasSuffix("`:"), lines[index + 1].isEmpty, lines[index + 2] == "```",
                let start = line.range(of: marker, options: .backwards)
            {
                let command = String(line[start.upperBound...].dropLast(2))
                var block: [String] = []
                var end = index + 3
                while end < lines.count && lines[end] != "```" {
                    block.append(lines[end])
                    end += 1
                }
                let output = block.isEmpty ? "" : block.joined(separator: "\n") + "\n"
                let arguments = command.split(separator: " ").map(String.init)
                found.append(Example(file: path, line: index + 1, arguments: arguments, output: output))
                index = end
            }
            index += 1
        }
        return found
    }

    /// The targets of `[text](target)` and `![alt](target)` on one line.
    static func linkTargets(_ line: String) -> [String] {
        var targets: [String] = []
        var rest = Substring(line)
        while let open = rest.range(of: "](") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: ")") else { break }
            targets.append(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return targets
    }

    @Test("every example in README.md and docs/*.md prints exactly what it shows")
    func examplesRun() throws {
        let documents = try Self.documents()
        var examples: [Example] = []
        for path in documents {
            examples += try Self.examples(in: path)
        }
        #expect(examples.count >= 3, "found only \(examples.count) examples in \(documents)")
        // The CSV example the README used to carry, and its test with it.
        #expect(examples.contains { $0.arguments == ["--sample", "--format", "csv", "--output", "-", "--top", "3"] })
        for example in examples {
            let folder = try TemporaryFolder()
            let run = try ExecutableTests.run(example.arguments, in: folder.url)
            #expect(run.status == 0, "\(example): exit \(run.status): \(run.stderr)")
            let printed = run.stdout.replacingOccurrences(of: "\r\n", with: "\n")
            #expect(printed == example.output, "\(example) prints something else:\n\(printed)")
        }
    }

    @Test("every relative link in README.md and docs/*.md leads to a file")
    func links() throws {
        var checked = 0
        for path in try Self.documents() {
            let folder = Fixtures.repositoryRoot.appendingPathComponent(path).deletingLastPathComponent()
            var inCodeBlock = false
            for (number, line) in try Self.lines(of: path).enumerated() {
                if line.hasPrefix("```") {
                    inCodeBlock.toggle()
                    continue
                }
                if inCodeBlock { continue }
                for target in Self.linkTargets(line) {
                    if target.isEmpty || target.hasPrefix("#") || target.hasPrefix("http://") || target.hasPrefix("https://")
                        || target.hasPrefix("mailto:")
                    {
                        continue
                    }
                    let file = String(target.prefix { $0 != "#" })
                    let resolved = folder.appendingPathComponent(file).standardizedFileURL
                    #expect(
                        FileManager.default.fileExists(atPath: resolved.path),
                        "\(path), line \(number + 1): \(target) leads to no file (\(resolved.path))")
                    checked += 1
                }
            }
        }
        #expect(checked >= 10, "found only \(checked) relative links")
    }
}
