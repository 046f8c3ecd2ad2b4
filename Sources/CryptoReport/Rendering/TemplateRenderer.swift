package import Foundation
import Mustache
import Synchronization

/// Renders the Markdown and HTML reports from Mustache templates: the built-in copies, or a
/// user's own from `--templates DIR`. Each is rendered by `CompiledTemplate` when it keeps to the
/// part of Mustache that follows (the built-in ones do), and by swift-mustache otherwise.
package struct TemplateRenderer: Sendable {
    static let fileNames: [ReportFormat: String] = [.markdown: "report.md", .html: "report.html"]

    /// The user's templates (and their partials), for what `CompiledTemplate` does not follow.
    private let library: MustacheLibrary
    /// Each report template of the run, by file name, that `CompiledTemplate` renders.
    private let compiled: [String: CompiledTemplate]
    /// The formats whose template is the user's.
    private let ownFormats: Set<ReportFormat>

    /// Whether `format`'s template is the user's: rendered bounded in time and size, and given
    /// every detail of the model.
    func usesOwnTemplate(_ format: ReportFormat) -> Bool { ownFormats.contains(format) }

    /// - Parameters:
    ///   - directory: a folder holding `report.md.mustache` and/or `report.html.mustache`; a file
    ///     it lacks falls back to the built-in template.
    ///   - formats: the formats the run writes (nil: all): only their templates are read, so that
    ///     a Markdown template being edited does not stop a CSV run.
    package init(directory: URL? = nil, formats: Set<ReportFormat>? = nil) throws(UsageError) {
        _ = MarkdownContentType.registered
        if let directory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
            else { throw .templateUnreadable(path: directory.path, reason: "no such folder") }
        }
        var library = MustacheLibrary()
        var texts: [String: String] = [:]
        var compiled: [String: CompiledTemplate] = [:]
        var ownFormats: Set<ReportFormat> = []
        let wanted = Self.fileNames.filter { formats?.contains($0.key) ?? true }
        for (format, name) in wanted.sorted(by: { $0.value < $1.value }) {
            if let own = try Self.text(of: name, in: directory) {
                ownFormats.insert(format)
                texts[name] = own
            } else {
                compiled[name] = Self.builtIn(name)
            }
        }
        // Every partial resolved, and none including itself, before any fetch: a template that
        // cannot render is a usage error now, not a crash after the requests.
        var shapes: [String: PartialShape] = [:]
        for name in wanted.values.sorted() where texts[name] != nil {
            try Self.resolvePartials(of: name, chain: [], texts: &texts, shapes: &shapes, directory: directory)
        }
        // swift-mustache parses each of the user's templates, which checks it; the ones that
        // keep to `CompiledTemplate`'s part of Mustache are rendered by it.
        for (name, text) in texts.sorted(by: { $0.key < $1.key }) {
            do {
                try library.register(text, named: name)
            } catch {
                throw .templateInvalid(name: name + ".mustache", reason: Self.describe(error))
            }
            if wanted.values.contains(name), let template = CompiledTemplate(text) { compiled[name] = template }
        }
        self.library = library
        self.compiled = compiled
        self.ownFormats = ownFormats
    }

    /// The built-in template `name` (`report.html`, `report.md`, `index.html`), compiled.
    static func builtIn(_ name: String) -> CompiledTemplate? {
        CompiledTemplate(EmbeddedTemplates.files[name] ?? "")
    }

    /// - Parameter alternatives: the same report in other currencies, which the HTML page can
    ///   switch to (`--currency SEK,USD`); Markdown shows `report` alone.
    package func render(_ report: Report, format: ReportFormat, alternatives: [Report] = []) -> String {
        render(
            format == .html
                ? ReportViewModel(report, alternatives: alternatives, lazyDetails: !usesOwnTemplate(.html))
                : ReportViewModel(report, strings: .english, details: false),
            format: format)
    }

    /// With a view model made once for every template of a run (Markdown, HTML and the index).
    func render(_ model: ReportViewModel, format: ReportFormat) -> String {
        guard let name = Self.fileNames[format], let template = compiled[name] else { return renderWithMustache(model, format: format) }
        return template.render(model)
    }

    /// Through swift-mustache, whichever the template is: a user's template that `CompiledTemplate`
    /// does not follow, and, in the tests, what `CompiledTemplate` must equal.
    func renderWithMustache(_ model: ReportViewModel, format: ReportFormat) -> String {
        guard let name = Self.fileNames[format] else { return "" }
        if library.getTemplate(named: name) == nil {
            var builtIn = MustacheLibrary()
            // The built-in templates are the repository's (`CompiledTemplateTests` checks that each
            // compiles), parsed here only for the tests that compare.
            try? builtIn.register(EmbeddedTemplates.files[name] ?? "", named: name)
            return builtIn.render(model, withTemplate: name) ?? ""
        }
        return library.render(model, withTemplate: name) ?? ""
    }

    /// How long a user's template may take to render, and how large a file it may make: a
    /// daily page renders in well under a second and a few megabytes, and a template whose
    /// sections over the markets nest inside each other would take minutes and gigabytes.
    package static let renderingTimeLimit: Duration = .seconds(20)
    package static let renderingSizeLimit = 256 << 20

    /// `render` on a thread of its own, waited for at most `timeLimit`: a template that would take
    /// longer is an error, and the run (which renders before its commit, outside any
    /// uninterrupted stretch) stays interruptible meanwhile. The abandoned rendering ends with
    /// the process, which the error ends.
    package static func bounded(
        _ format: ReportFormat, timeLimit: Duration = renderingTimeLimit, sizeLimit: Int = renderingSizeLimit, _ render: @escaping () throws -> String
    ) throws -> String {
        let name = (fileNames[format] ?? format.rawValue) + ".mustache"
        let outcome = RenderingOutcome()
        nonisolated(unsafe) let render = render
        let thread = Thread { outcome.finish(Result { try render() }) }
        // Mustache recurses once per nested section: room for a template's honest depth.
        thread.stackSize = 16 << 20
        thread.start()
        guard let result = outcome.wait(timeLimit) else {
            throw UsageError.templateTooCostly(name: name, reason: "did not render within \(FetchError.format(timeLimit.timeInterval)) s")
        }
        let text = try result.get()
        guard text.utf8.count <= sizeLimit else {
            throw UsageError.templateTooCostly(name: name, reason: "renders more than \(sizeLimit >> 20) MB")
        }
        return text
    }

    static let templateSizeLimit = 16 << 20

    /// The user's `NAME.mustache`, if the folder has one.
    private static func text(of name: String, in directory: URL?) throws(UsageError) -> String? {
        guard let directory else { return nil }
        let url = directory.appendingPathComponent(name + ".mustache")
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        // A FIFO or a device would hold the run in its read; a template is a file of some kilobytes.
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .templateUnreadable(path: url.path, reason: "not a regular file (a FIFO, a device or a folder)")
        }
        guard info.st_size <= templateSizeLimit else { throw .templateUnreadable(path: url.path, reason: "larger than 16 MB") }
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .templateUnreadable(path: url.path, reason: "not a readable UTF-8 file")
        }
    }

    /// What a check of one template's partials found: how deep they nest below it and how many
    /// partials one rendering of it expands (without sections' repeats).
    private struct PartialShape {
        var depth = 0
        var expansions = 0
    }

    /// Loads the partials `name` includes (a report template, or `NAME.mustache` in the folder),
    /// depth first, refusing a cycle, nesting deeper than `TemplatePartials.maximumDepth`, a
    /// template expanding more than `TemplatePartials.maximumExpansions` partials (each checked
    /// once, so that a hostile fan-out cannot make the check itself slow), a partial that no file
    /// provides and one named by the data.
    @discardableResult
    private static func resolvePartials(
        of name: String, chain: [String], texts: inout [String: String], shapes: inout [String: PartialShape], directory: URL?
    ) throws(UsageError) -> PartialShape {
        if let known = shapes[name] { return known }
        let chain = chain + [name]
        let file = (chain.first ?? name) + ".mustache"
        var shape = PartialShape()
        for reference in TemplatePartials.references(in: texts[name] ?? "") {
            switch reference {
            case let .dynamic(key):
                throw .templateInvalid(name: file, reason: "the dynamic partial {{>*\(key)}} is not supported; name the partial")
            case let .named(partial):
                if chain.contains(partial) {
                    throw .templateInvalid(
                        name: file, reason: "it includes itself through partials (\((chain + [partial]).joined(separator: " → ")))")
                }
                if texts[partial] == nil {
                    let loaded = partial.contains("/") || partial.hasPrefix(".") ? nil : try text(of: partial, in: directory)
                    guard let loaded else {
                        let folder = directory.map { " in \($0.path)" } ?? ""
                        throw .templateInvalid(name: file, reason: "the partial {{> \(partial)}} has no file \(partial).mustache\(folder)")
                    }
                    texts[partial] = loaded
                }
                let below = try resolvePartials(of: partial, chain: chain, texts: &texts, shapes: &shapes, directory: directory)
                shape.depth = max(shape.depth, below.depth + 1)
                shape.expansions = min(shape.expansions + below.expansions + 1, TemplatePartials.maximumExpansions + 1)
                guard shape.depth <= TemplatePartials.maximumDepth else {
                    throw .templateInvalid(name: file, reason: "partials nest more than \(TemplatePartials.maximumDepth) deep, below \(partial)")
                }
                guard shape.expansions <= TemplatePartials.maximumExpansions else {
                    throw .templateInvalid(
                        name: file, reason: "one rendering would include more than \(TemplatePartials.maximumExpansions) partials")
                }
            }
        }
        shapes[name] = shape
        return shape
    }

    private static func describe(_ error: any Error) -> String {
        if let parserError = error as? MustacheTemplate.ParserError {
            return "line \(parserError.context.lineNumber): \(words(parserError.error))"
        }
        return "\(error)"
    }

    /// swift-mustache's parser errors are bare enum cases; a person reads these.
    private static func words(_ error: any Error) -> String {
        // The reader's own error, `Parser.Error.overflow`, is internal to swift-mustache: known by
        // its name only. It is the end of the template met inside a tag.
        if "\(error)" == "overflow" { return "the template ends inside a tag: a {{ is never closed with }}" }
        guard let error = error as? MustacheTemplate.Error else { return "\(error)" }
        return switch error {
        case .sectionCloseNameIncorrect: "a section is closed with another name than it was opened with"
        case .unfinishedName: "a tag is not closed with }}"
        case .expectedSectionEnd: "a section {{#…}} or {{^…}} is never closed with {{/…}}"
        case .invalidSetDelimiter: "a {{=… …=}} delimiter change is malformed"
        case .transformAppliedToInheritanceSection: "a transform is applied to an inherited section"
        case .illegalTokenInsideInheritSection: "an inherited partial holds a tag other than a block"
        case .textInsideInheritSection: "an inherited partial holds text outside its blocks"
        case .invalidConfigVariableSyntax: "a {{% …}} pragma is malformed"
        case .unrecognisedConfigVariable: "a {{% …}} pragma is not known"
        @unknown default: "\(error)"
        }
    }
}

/// A rendering's result, handed from its thread to the one waiting for it.
private final class RenderingOutcome: Sendable {
    private let state = Mutex<Result<String, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ result: Result<String, any Error>) {
        state.withLock { $0 = result }
        done.signal()
    }

    /// `nil` when the time ran out first.
    func wait(_ limit: Duration) -> Result<String, any Error>? {
        guard done.wait(timeout: .now() + limit.timeInterval) == .success else { return nil }
        return state.withLock { $0 }
    }
}
