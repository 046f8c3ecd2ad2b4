import Foundation

/// A Mustache template parsed once into a tree and rendered by walking it over a view model.
///
/// It renders the part of Mustache the built-in templates use, and any user's template that keeps
/// to it: text, `{{name}}`, `{{{name}}}`, `{{&name}}`, dotted names, sections, inverted sections,
/// comments and `{{% CONTENT_TYPE: HTML|TEXT|MARKDOWN}}`. `init` returns nil for anything else
/// (partials, inheritance, transforms, other delimiters, a malformed tag), which swift-mustache
/// then renders or reports.
///
/// Written by hand because swift-mustache is too slow for a daily page (docs/performance.md): its
/// parser measures the distance to the template's end at each read, a cost that grows with the
/// square of a template's length, and its lookups cast every value of the context stack to each
/// of its protocols at every tag. Here a template is read in linear time
/// (`CompiledTemplate+Parser`), and each value is cast once, when its section is entered
/// (`CompiledTemplate+Renderer`). Everything else follows swift-mustache 2.1.1's own rules to the
/// byte: which lines stand alone and vanish, how a name is looked up (`MustacheParent`,
/// `MustacheCustomRepresentation`, then `Mirror`), what a section does with a list, a Bool, a null
/// or a value, and how each content type escapes (but for one case of HTML, `htmlEscape`).
/// `CompiledTemplateTests` renders random templates over random data both ways and requires the
/// same text. The view models this project renders hold no lambdas and no templates, which
/// swift-mustache would call, and no custom representation but `NSNull`.
struct CompiledTemplate: Sendable {
    /// A name in a tag: `.` (the current value), `.a.b` (from the current value only) or `a.b`
    /// (the first value up the stack that has `a`).
    struct Name: Sendable, Equatable {
        var fromTop: Bool
        var path: [String]
    }

    enum Escaping: Sendable {
        case html, text, markdown
    }

    enum Node: Sendable {
        case text(String)
        case variable(Name, escaped: Bool)
        case section(Name, [Node], inverted: Bool)
        /// The content type of what follows in the same section.
        case escaping(Escaping)
    }

    let nodes: [Node]

    init?(_ text: String) {
        var parser = Parser(text)
        guard let nodes = parser.parse(section: nil, newLine: true), parser.atEnd else { return nil }
        self.nodes = Self.joiningTexts(nodes)
    }

    /// The nodes with each run of texts one text (the parser makes one a line), inside sections too.
    static func joiningTexts(_ nodes: [Node]) -> [Node] {
        var joined: [Node] = []
        for node in nodes {
            switch node {
            case let .text(text):
                if case .text(var before)? = joined.last {
                    // Taken out first, so that it grows in place.
                    joined.removeLast()
                    before += text
                    joined.append(.text(before))
                } else {
                    joined.append(node)
                }
            case let .section(name, inner, inverted):
                joined.append(.section(name, joiningTexts(inner), inverted: inverted))
            default:
                joined.append(node)
            }
        }
        return joined
    }

    /// - Parameter sizeLimit: the rendering stops once the text is longer (in UTF-8 bytes), and
    ///   returns what it has: a user's template whose sections over the markets nest inside each
    ///   other would otherwise fill the memory before its time ran out (`TemplateRenderer.bounded`).
    func render(_ root: Any, sizeLimit: Int = TemplateRenderer.renderingSizeLimit) -> String {
        var renderer = Renderer(sizeLimit: sizeLimit)
        renderer.push(root)
        renderer.render(nodes, escaping: .html)
        return renderer.out
    }
}
