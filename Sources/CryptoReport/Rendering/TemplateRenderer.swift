import Foundation
import Mustache

/// Renders the Markdown and HTML reports from Mustache templates: the built-in copies, or a
/// user's own from `--templates DIR`.
public struct TemplateRenderer: Sendable {
    static let fileNames: [ReportFormat: String] = [.markdown: "report.md", .html: "report.html"]

    private let library: MustacheLibrary

    /// - Parameter directory: a folder holding `report.md.mustache` and/or `report.html.mustache`;
    ///   a file it lacks falls back to the built-in template.
    public init(directory: URL? = nil) throws(UsageError) {
        _ = MarkdownContentType.registered
        if let directory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
            else { throw .templateUnreadable(path: directory.path, reason: "no such folder") }
        }
        var library = MustacheLibrary()
        for name in Self.fileNames.values.sorted() {
            var text = EmbeddedTemplates.files[name] ?? ""
            if let directory {
                let url = directory.appendingPathComponent(name + ".mustache")
                if FileManager.default.fileExists(atPath: url.path) {
                    do {
                        text = try String(contentsOf: url, encoding: .utf8)
                    } catch {
                        throw .templateUnreadable(path: url.path, reason: "not a readable UTF-8 file")
                    }
                }
            }
            do {
                try library.register(text, named: name)
            } catch {
                throw .templateInvalid(name: name + ".mustache", reason: Self.describe(error))
            }
        }
        self.library = library
    }

    public func render(_ report: Report, format: ReportFormat) -> String {
        guard let name = Self.fileNames[format] else { return "" }
        return library.render(ReportViewModel(report), withTemplate: name) ?? ""
    }

    private static func describe(_ error: any Error) -> String {
        if let parserError = error as? MustacheTemplate.ParserError {
            return "line \(parserError.context.lineNumber): \(parserError.error)"
        }
        return "\(error)"
    }
}
