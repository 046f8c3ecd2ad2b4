import Foundation
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
/// models this project renders hold no lambdas and no templates, which swift-mustache would call,
/// and no custom representation but `NSNull`.
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
        var parser = Parser(Array(text))
        guard let nodes = parser.parse(section: nil, newLine: true), parser.atEnd else { return nil }
        self.nodes = nodes
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

        /// swift-mustache's `sectionNameChars`: a name's, and a transform's brackets.
        static func isNameCharacter(_ character: Character) -> Bool {
            isPlainNameCharacter(character) || character == "(" || character == ")"
        }

        /// swift-mustache's `sectionNameCharsWithoutBrackets`: letters, digits and `.-_?*`.
        static func isPlainNameCharacter(_ character: Character) -> Bool {
            guard let ascii = character.asciiValue, character.utf8.count == 1 else { return false }
            switch ascii {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): return true
            case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "?"), UInt8(ascii: "*"): return true
            default: return false
            }
        }

        /// `Character.isWhitespace`, without Unicode's tables for ASCII.
        static func isWhitespace(_ character: Character) -> Bool {
            guard let ascii = character.asciiValue else { return character.isWhitespace }
            return ascii == 0x20 || (0x09...0x0D).contains(ascii)
        }

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
            _ = read(while: Self.isWhitespace)
            let name = read(while: Self.isNameCharacter)
            _ = read(while: Self.isWhitespace)
            guard readCloser() else { return nil }
            guard name.allSatisfy(Self.isPlainNameCharacter) else { return nil }
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
            _ = read(while: Self.isWhitespace)
            let variable = read(while: Self.isPlainNameCharacter)
            _ = read(while: Self.isWhitespace)
            guard current == ":" else { return nil }
            position += 1
            _ = read(while: Self.isWhitespace)
            let value = read(while: Self.isPlainNameCharacter)
            _ = read(while: Self.isWhitespace)
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
    /// What a value's type is to Mustache, each question asked of the runtime once per type and
    /// only when a tag needs the answer: the first time the runtime is asked whether a type
    /// conforms to a protocol, it searches every conformance of the program (in this binary,
    /// Foundation's too), and a cast asks. An optional's answers depend on whether it holds a
    /// value: asked each time.
    private struct Kind {
        var optional: Bool
        /// `NSNull`, the one `MustacheCustomRepresentation` there is (its representation: nil).
        var null: Bool
        var sequence: Bool?
        var parent: Bool?
        var renderable: Bool?

        init(of value: Any) {
            // By the type's name: a cast to a protocol of Optional's would search as above.
            optional = _typeName(Swift.type(of: value), qualified: true).hasPrefix("Swift.Optional<")
            // A class first: asking a struct whether it is an `NSNull` would search as above.
            null = Swift.type(of: value) is AnyObject.Type && value is NSNull
        }
    }

    /// A value on the context stack, cast once (when its section is entered) to what a lookup
    /// asks of it.
    private enum Frame {
        /// A value that answers lookups itself (nearly every one: the view models' types).
        case parent(any MustacheParent)
        /// Any other: `represented` is what a lookup reads (nil for `NSNull`, or the value itself).
        case other(value: Any, represented: Any?)

        var value: Any {
            switch self {
            case let .parent(parent): parent
            case let .other(value, _): value
            }
        }
    }

    private struct Renderer {
        let sizeLimit: Int
        var out = ""
        var stack: [Frame] = []
        var kinds: [(type: ObjectIdentifier, kind: Kind)] = []

        /// The types met so far, searched from the last: a page meets some twenty.
        mutating func kindIndex(of value: Any) -> Int {
            let type = ObjectIdentifier(Swift.type(of: value))
            var index = kinds.count - 1
            while index >= 0 {
                if kinds[index].type == type {
                    if kinds[index].kind.optional { kinds[index].kind = Kind(of: value) }
                    return index
                }
                index -= 1
            }
            kinds.append((type, Kind(of: value)))
            return kinds.count - 1
        }

        mutating func kind(of value: Any) -> Kind { kinds[kindIndex(of: value)].kind }

        /// One answer of `Kind`, asked once per type (each time for an optional).
        mutating func answer(_ question: WritableKeyPath<Kind, Bool?>, of value: Any, _ ask: (Any) -> Bool) -> Bool {
            let index = kindIndex(of: value)
            if let known = kinds[index].kind[keyPath: question] { return known }
            let answer = ask(value)
            kinds[index].kind[keyPath: question] = answer
            return answer
        }

        mutating func isSequence(_ value: Any) -> Bool { answer(\.sequence, of: value) { $0 is any MustacheSequence } }
        mutating func isParent(_ value: Any) -> Bool { answer(\.parent, of: value) { $0 is any MustacheParent } }
        mutating func isRenderable(_ value: Any) -> Bool { answer(\.renderable, of: value) { $0 is any MustacheCustomRenderable } }

        mutating func push(_ value: Any) {
            if kind(of: value).null {
                stack.append(.other(value: value, represented: nil))
            } else if isParent(value), let parent = value as? any MustacheParent {
                stack.append(.parent(parent))
            } else {
                stack.append(.other(value: value, represented: value))
            }
        }

        mutating func render(_ nodes: [Node], escaping startEscaping: Escaping) {
            var escaping = startEscaping
            for node in nodes {
                guard out.utf8.count <= sizeLimit else { return }
                switch node {
                case let .text(text):
                    out += text
                case let .variable(name, escaped):
                    guard let value = lookUp(name) else { continue }
                    let text = text(of: value)
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

        /// swift-mustache's `renderSection`: a list once per element, a Bool's truth, nothing for a
        /// null, any other value once on top of the stack.
        mutating func renderSection(_ value: Any?, _ nodes: [Node], escaping: Escaping) {
            guard let value else { return }
            // A Bool first (no Bool is a list), by its type, or an optional that holds one.
            if Swift.type(of: value) == Bool.self || kind(of: value).optional, let bool = value as? Bool {
                if bool { render(nodes, escaping: escaping) }
                return
            }
            if isSequence(value), let sequence = value as? any MustacheSequence {
                CompiledTemplate.forEach(in: sequence) { element in
                    push(element)
                    render(nodes, escaping: escaping)
                    stack.removeLast()
                }
                return
            }
            if isRenderable(value), let null = value as? any MustacheCustomRenderable, null.isNull { return }
            push(value)
            render(nodes, escaping: escaping)
            stack.removeLast()
        }

        /// swift-mustache's `renderInvertedSection`.
        mutating func renderInverted(_ value: Any?, _ nodes: [Node], escaping: Escaping) {
            guard let value else { return render(nodes, escaping: escaping) }
            if Swift.type(of: value) == Bool.self || kind(of: value).optional, let bool = value as? Bool {
                if !bool { render(nodes, escaping: escaping) }
                return
            }
            if isSequence(value), let sequence = value as? any MustacheSequence {
                if CompiledTemplate.isEmpty(sequence) {
                    push(sequence)
                    render(nodes, escaping: escaping)
                    stack.removeLast()
                }
                return
            }
            if isRenderable(value), let null = value as? any MustacheCustomRenderable, null.isNull { render(nodes, escaping: escaping) }
        }

        /// swift-mustache's `getChild`, without transforms.
        mutating func lookUp(_ name: Name) -> Any? {
            var found: Any?
            if name.fromTop || name.path.isEmpty {
                guard let top = stack.last?.value else { return nil }
                found = name.path.isEmpty ? top : descend(name.path[...], from: top)
            } else {
                let first = name.path[0]
                var index = stack.count - 1
                while index >= 0 {
                    let child: Any?
                    // A value that answers itself (nearly every one) without copying its frame.
                    if case let .parent(parent) = stack[index] {
                        child = parent.child(named: first)
                    } else {
                        child = self.child(named: first, of: stack[index])
                    }
                    if let child {
                        found = name.path.count == 1 ? child : descend(name.path.dropFirst(), from: child)
                        break
                    }
                    index -= 1
                }
            }
            guard let found else { return nil }
            return represented(found)
        }

        mutating func child(named name: String, of frame: Frame) -> Any? {
            switch frame {
            case let .parent(parent): parent.child(named: name)
            case let .other(_, represented): represented.flatMap { lookUpChild(named: name, in: $0) }
            }
        }

        /// swift-mustache's `_getChild`: each name of the path from the value before.
        mutating func descend(_ path: ArraySlice<String>, from value: Any) -> Any? {
            guard let name = path.first else { return value }
            guard let represented = represented(value), let child = lookUpChild(named: name, in: represented) else { return nil }
            return descend(path.dropFirst(), from: child)
        }

        /// A child of a value that is no custom representation: its own answer, or its stored
        /// property through `Mirror` (swift-mustache's `Mirror.getValue(forKey:)`, which unwraps
        /// an optional).
        mutating func lookUpChild(named name: String, in value: Any) -> Any? {
            if isParent(value), let parent = value as? any MustacheParent { return parent.child(named: name) }
            guard let matched = Mirror(reflecting: value).children.first(where: { $0.label == name }) else { return nil }
            let mirror = Mirror(reflecting: matched.value)
            guard mirror.displayStyle == .optional else { return matched.value }
            return mirror.children.first?.value
        }

        /// The value a lookup reads: a `MustacheCustomRepresentation`'s representation (nil for
        /// `NSNull`, the one there is), any other value itself.
        mutating func represented(_ value: Any) -> Any? {
            // Nearly every value: a text or a Bool, known by its type alone.
            if CompiledTemplate.isPlain(value) { return value }
            return kind(of: value).null ? nil : value
        }

        /// What `{{name}}` shows of a value, before escaping.
        mutating func text(of value: Any) -> String {
            if Swift.type(of: value) == String.self, let text = value as? String { return text }
            let kind = kind(of: value)
            if isRenderable(value), let renderable = value as? any MustacheCustomRenderable { return renderable.renderText }
            if kind.optional, let optional = value as? any OptionalValue, let wrapped = optional.wrapped { return String(describing: wrapped) }
            return String(describing: value)
        }

        mutating func append(_ text: String, escaping: Escaping) {
            switch escaping {
            case .text: out += text
            case .markdown: out += MarkdownContentType.escape(text)
            case .html:
                // Most texts (figures, names) hold none of the five: appended whole.
                if text.utf8.contains(where: CompiledTemplate.escapesInHTML) {
                    out += CompiledTemplate.htmlEscape(text)
                } else {
                    out += text
                }
            }
        }
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

    /// `"` 0x22, `&` 0x26, `'` 0x27, `<` 0x3C, `>` 0x3E: one bit each of a 64-bit mask.
    static func escapesInHTML(_ byte: UInt8) -> Bool {
        byte < 64 && (0x5000_00C4_0000_0000 as UInt64) >> byte & 1 != 0
    }

    /// A `String` or a `Bool`, by its type alone (no cast): what nearly every tag finds.
    private static func isPlain(_ value: Any) -> Bool {
        let type = Swift.type(of: value)
        return type == String.self || type == Bool.self
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
