import Mustache

/// A Mustache template parsed once into a tree and rendered by walking it over a view model.
///
/// It renders the part of Mustache the built-in templates use, and any user's template that keeps
/// to it: text, `{{name}}`, `{{{name}}}`, `{{&name}}`, dotted names, sections, inverted sections,
/// comments and `{{% CONTENT_TYPE: HTML|TEXT|MARKDOWN}}`. `init` returns nil for anything else
/// (partials, inheritance, transforms, other delimiters, a malformed tag), which swift-mustache
/// then renders or reports.
///
/// Written by hand because swift-mustache took several times as long as the rest of a daily run
/// to render the page: its parser measures the distance to the template's end at each read (a
/// cost that grows with the square of a template's length), and its lookups cast every value of
/// the context stack to each of its protocols at every tag (docs/performance.md). Here each
/// value is cast once, when its section is entered. Everything else follows swift-mustache
/// 2.1.1's own rules to the byte: which lines stand alone and vanish, how a name is looked up
/// (`MustacheParent`, `MustacheCustomRepresentation`, then `Mirror`), what a section does with a
/// list, a Bool, a null or a value, and how each content type escapes (but for one case of HTML,
/// `htmlEscape`). `CompiledTemplateTests`
/// renders random templates over random data both ways and requires the same text. The view
/// models this project renders hold no lambdas and no templates, which swift-mustache would call.
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

    indirect enum Node: Sendable {
        case text(String)
        case variable(Name, escaped: Bool)
        case section(Name, [Node], inverted: Bool)
        /// The content type of what follows in the same section.
        case escaping(Escaping)
    }

    let nodes: [Node]

    init?(_ text: String) {
        var parser = Parser(Array(text))
        guard let nodes = parser.parse(section: nil, newLine: true), parser.atEnd else { return nil }
        self.nodes = nodes
    }

    func render(_ root: Any) -> String {
        var renderer = Renderer()
        renderer.push(root)
        renderer.render(nodes, escaping: .html)
        return renderer.out
    }
}

// MARK: - Parsing

extension CompiledTemplate {
    /// swift-mustache's parser (`MustacheTemplate.parse`), state for state, over an array of
    /// Characters: the same Characters it compares, read in linear time.
    private struct Parser {
        let characters: [Character]
        var position = 0

        init(_ characters: [Character]) { self.characters = characters }

        var atEnd: Bool { position == characters.count }
        /// `"\0"` past the end, as swift-mustache's `current()`.
        var current: Character { atEnd ? "\0" : characters[position] }

        static let nameCharacters = Set<Character>("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*")
        static let plainNameCharacters = Set<Character>("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*")

        mutating func read(while accepts: (Character) -> Bool) -> String {
            let start = position
            while !atEnd, accepts(characters[position]) { position += 1 }
            return String(characters[start..<position])
        }

        /// The section's nodes up to its `{{/name}}` (or the end, for the whole template); nil
        /// where swift-mustache would fail or this renderer does not follow it.
        mutating func parse(section: String?, newLine startsOnNewLine: Bool) -> [Node]? {
            var nodes: [Node] = []
            var newLine = startsOnNewLine
            var whiteSpaceBefore = ""
            while !atEnd {
                if newLine { whiteSpaceBefore = read { $0 == " " || $0 == "\t" } }
                guard let text = readUntilTagOrNewline() else { return nil }
                if current.isNewline {
                    nodes.append(.text(whiteSpaceBefore + text + String(current)))
                    newLine = true
                    position += 1
                    continue
                }
                if !text.isEmpty {
                    nodes.append(.text(whiteSpaceBefore + text))
                    whiteSpaceBefore = ""
                    newLine = false
                }
                if atEnd { break }
                var setNewLine = false
                switch current {
                case "#", "^":
                    let inverted = current == "^"
                    position += 1
                    guard let name = readName() else { return nil }
                    if newLine && lineFinished() {
                        setNewLine = true
                    } else if !whiteSpaceBefore.isEmpty {
                        nodes.append(.text(whiteSpaceBefore))
                        whiteSpaceBefore = ""
                    }
                    guard let inner = parse(section: name, newLine: newLine && setNewLine) else { return nil }
                    nodes.append(.section(Self.name(name), inner, inverted: inverted))
                case "/":
                    position += 1
                    guard let name = readName(), name == section else { return nil }
                    if newLine && lineFinished() {
                        // Nothing more: the line is gone.
                    } else if !whiteSpaceBefore.isEmpty {
                        nodes.append(.text(whiteSpaceBefore))
                    }
                    return nodes
                case "!":
                    position += 1
                    guard readComment() else { return nil }
                    setNewLine = newLine && lineFinished()
                case "{", "&":
                    let triple = current == "{"
                    if !whiteSpaceBefore.isEmpty {
                        nodes.append(.text(whiteSpaceBefore))
                        whiteSpaceBefore = ""
                    }
                    position += 1
                    guard let name = readName() else { return nil }
                    if triple {
                        guard current == "}" else { return nil }
                        position += 1
                    }
                    nodes.append(.variable(Self.name(name), escaped: false))
                case "%":
                    position += 1
                    guard let escaping = readContentType() else { return nil }
                    nodes.append(.escaping(escaping))
                    setNewLine = newLine && lineFinished()
                case ">", "<", "$", "=":
                    // Partials, inheritance and other delimiters: swift-mustache's.
                    return nil
                default:
                    if !whiteSpaceBefore.isEmpty {
                        nodes.append(.text(whiteSpaceBefore))
                        whiteSpaceBefore = ""
                    }
                    guard let name = readName() else { return nil }
                    nodes.append(.variable(Self.name(name), escaped: true))
                }
                newLine = setNewLine
            }
            return section == nil ? nodes : nil
        }

        /// Text up to a newline (left unread) or past `{{`; nil where swift-mustache would fail
        /// (a `{` that ends the template).
        mutating func readUntilTagOrNewline() -> String? {
            var text = ""
            while !atEnd {
                let character = characters[position]
                if character == "\n" || character == "\r\n" { break }
                if character == "{" {
                    guard position + 1 < characters.count else { return nil }
                    if characters[position + 1] == "{" {
                        position += 2
                        break
                    }
                    text.append("{")
                    position += 1
                    continue
                }
                text.append(character)
                position += 1
            }
            return text
        }

        /// A tag's name and its `}}`; nil for a malformed tag or a transform (`name(x)`).
        mutating func readName() -> String? {
            _ = read { $0.isWhitespace }
            let name = read { Self.nameCharacters.contains($0) }
            _ = read { $0.isWhitespace }
            guard readCloser() else { return nil }
            guard name.allSatisfy({ Self.plainNameCharacters.contains($0) }) else { return nil }
            return name
        }

        mutating func readCloser() -> Bool {
            guard position + 1 < characters.count, characters[position] == "}", characters[position + 1] == "}" else { return false }
            position += 2
            return true
        }

        mutating func readComment() -> Bool {
            while position + 1 < characters.count {
                if characters[position] == "}" && characters[position + 1] == "}" {
                    position += 2
                    return true
                }
                position += 1
            }
            return false
        }

        /// `{{% CONTENT_TYPE: NAME}}` after its `%`, for the content types this renderer knows.
        mutating func readContentType() -> Escaping? {
            _ = read { $0.isWhitespace }
            let variable = read { Self.plainNameCharacters.contains($0) }
            _ = read { $0.isWhitespace }
            guard current == ":" else { return nil }
            position += 1
            _ = read { $0.isWhitespace }
            let value = read { Self.plainNameCharacters.contains($0) }
            _ = read { $0.isWhitespace }
            guard readCloser(), variable == "CONTENT_TYPE" else { return nil }
            return switch value {
            case "HTML": .html
            case "TEXT": .text
            case MarkdownContentType.name: .markdown
            default: nil
            }
        }

        /// swift-mustache's `hasLineFinished`: at the end, or only spaces and tabs before a
        /// newline, which is then read.
        mutating func lineFinished() -> Bool {
            if atEnd { return true }
            var ahead = position
            while ahead < characters.count, characters[ahead] == " " || characters[ahead] == "\t" { ahead += 1 }
            guard ahead < characters.count, characters[ahead].isNewline else { return false }
            position = ahead + 1
            return true
        }

        static func name(_ text: String) -> Name {
            let path = text.split(separator: ".").map(String.init)
            return Name(fromTop: text.first == ".", path: path)
        }
    }
}

// MARK: - Rendering

extension CompiledTemplate {
    /// A value on the context stack, cast once (when its section is entered) to what a lookup
    /// asks of it.
    private enum Frame {
        /// A value that answers lookups itself (nearly every one: the view models' types).
        case parent(any MustacheParent)
        /// Any other: `represented` is what a lookup reads (`MustacheCustomRepresentation`'s
        /// representation, or the value itself), through `Mirror`.
        case other(value: Any, represented: Any?)

        init(_ value: Any) {
            if let custom = value as? any MustacheCustomRepresentation {
                self = .other(value: value, represented: custom.representation)
            } else if let parent = value as? any MustacheParent {
                self = .parent(parent)
            } else {
                self = .other(value: value, represented: value)
            }
        }

        var value: Any {
            switch self {
            case let .parent(parent): parent
            case let .other(value, _): value
            }
        }

        func child(named name: String) -> Any? {
            switch self {
            case let .parent(parent):
                return parent.child(named: name)
            case let .other(_, represented):
                if let parent = represented as? any MustacheParent { return parent.child(named: name) }
                return represented.flatMap { CompiledTemplate.mirrorChild(named: name, of: $0) }
            }
        }
    }

    private struct Renderer {
        var out = ""
        var stack: [Frame] = []

        mutating func push(_ value: Any) { stack.append(Frame(value)) }

        mutating func render(_ nodes: [Node], escaping startEscaping: Escaping) {
            var escaping = startEscaping
            for node in nodes {
                switch node {
                case let .text(text):
                    out += text
                case let .variable(name, escaped):
                    guard let value = lookUp(name) else { continue }
                    let text = CompiledTemplate.text(of: value)
                    if escaped {
                        append(text, escaping: escaping)
                    } else {
                        out += text
                    }
                case let .section(name, inner, inverted):
                    let value = lookUp(name)
                    if inverted {
                        renderInverted(value, inner, escaping: escaping)
                    } else {
                        renderSection(value, inner, escaping: escaping)
                    }
                case let .escaping(next):
                    escaping = next
                }
            }
        }

        mutating func renderSection(_ value: Any?, _ nodes: [Node], escaping: Escaping) {
            // A Bool first: no Bool is a sequence, and it is the cheaper cast.
            switch value {
            case let bool as Bool:
                if bool { render(nodes, escaping: escaping) }
            case let sequence as any MustacheSequence:
                CompiledTemplate.forEach(in: sequence) { element in
                    push(element)
                    render(nodes, escaping: escaping)
                    stack.removeLast()
                }
            case let null as any MustacheCustomRenderable where null.isNull:
                break
            case let .some(value):
                push(value)
                render(nodes, escaping: escaping)
                stack.removeLast()
            case .none:
                break
            }
        }

        mutating func renderInverted(_ value: Any?, _ nodes: [Node], escaping: Escaping) {
            switch value {
            case let bool as Bool:
                if !bool { render(nodes, escaping: escaping) }
            case let sequence as any MustacheSequence:
                if CompiledTemplate.isEmpty(sequence) {
                    push(sequence)
                    render(nodes, escaping: escaping)
                    stack.removeLast()
                }
            case let null as any MustacheCustomRenderable where null.isNull:
                render(nodes, escaping: escaping)
            case .some:
                break
            case .none:
                render(nodes, escaping: escaping)
            }
        }

        /// swift-mustache's `getChild`, without transforms.
        func lookUp(_ name: Name) -> Any? {
            guard let top = stack.last else { return nil }
            var found: Any?
            if name.fromTop || name.path.isEmpty {
                found = name.path.isEmpty ? top.value : CompiledTemplate.descend(name.path[...], from: top.value)
            } else {
                let first = name.path[0]
                var index = stack.count - 1
                while index >= 0 {
                    if let child = stack[index].child(named: first) {
                        found = name.path.count == 1 ? child : CompiledTemplate.descend(name.path.dropFirst(), from: child)
                        break
                    }
                    index -= 1
                }
            }
            // A text or a Bool (nearly every value) is no custom representation: not asked.
            if found is String || found is Bool { return found }
            if let custom = found as? any MustacheCustomRepresentation { found = custom.representation }
            return found
        }

        mutating func append(_ text: String, escaping: Escaping) {
            switch escaping {
            case .text: out += text
            case .markdown: out += MarkdownContentType.escape(text)
            case .html:
                // Most texts (figures, names) hold none of the five: appended whole.
                if text.utf8.contains(where: { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 || $0 == 0x22 || $0 == 0x27 }) {
                    out += CompiledTemplate.htmlEscape(text)
                } else {
                    out += text
                }
            }
        }
    }

    /// swift-mustache's `_getChild`: each name of the path from the value before.
    private static func descend(_ path: ArraySlice<String>, from value: Any) -> Any? {
        guard let name = path.first else { return value }
        let represented = represented(value)
        let child: Any?
        if let parent = represented as? any MustacheParent {
            child = parent.child(named: name)
        } else {
            child = represented.flatMap { mirrorChild(named: name, of: $0) }
        }
        guard let child else { return nil }
        return descend(path.dropFirst(), from: child)
    }

    /// The value a lookup reads: a `MustacheCustomRepresentation`'s representation (nil for
    /// `NSNull`), any other value itself.
    fileprivate static func represented(_ value: Any) -> Any? {
        if let custom = value as? any MustacheCustomRepresentation { return custom.representation }
        return value
    }

    /// swift-mustache's `Mirror.getValue(forKey:)`: the stored property, an optional unwrapped.
    fileprivate static func mirrorChild(named name: String, of value: Any) -> Any? {
        guard let matched = Mirror(reflecting: value).children.first(where: { $0.label == name }) else { return nil }
        let mirror = Mirror(reflecting: matched.value)
        guard mirror.displayStyle == .optional else { return matched.value }
        return mirror.children.first?.value
    }

    /// What `{{name}}` shows of a value, before escaping.
    private static func text(of value: Any) -> String {
        if let text = value as? String { return text }
        if let renderable = value as? any MustacheCustomRenderable { return renderable.renderText }
        if let optional = value as? any OptionalValue, let wrapped = optional.wrapped { return String(describing: wrapped) }
        return String(describing: value)
    }

    /// `<`, `>`, `&`, `"` and `'` escaped byte by byte. swift-mustache compares Characters, so a
    /// quote that a combining mark follows (`"\u{301}`, one Character) passes it unescaped and
    /// could end an attribute; here it cannot. The one difference from swift-mustache, for text
    /// the feeds' checks never let through (`SourceText`).
    private static func htmlEscape(_ text: String) -> String {
        var escaped = [UInt8]()
        escaped.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "<"): escaped += "&lt;".utf8
            case UInt8(ascii: ">"): escaped += "&gt;".utf8
            case UInt8(ascii: "&"): escaped += "&amp;".utf8
            case UInt8(ascii: "\""): escaped += "&quot;".utf8
            case UInt8(ascii: "'"): escaped += "&#39;".utf8
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    private static func forEach<S: Sequence>(in sequence: S, _ body: (Any) -> Void) {
        for element in sequence { body(element) }
    }

    private static func isEmpty<S: Sequence>(_ sequence: S) -> Bool {
        var iterator = sequence.makeIterator()
        return iterator.next() == nil
    }
}

/// An optional seen as `Any`, unwrapped to print what it holds (swift-mustache's `AnyOptional`).
private protocol OptionalValue {
    var wrapped: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrapped: Any? { self }
}
