import Foundation
import Mustache

extension CompiledTemplate {
    /// What a value's type is to Mustache, each question asked of the runtime once per type and
    /// only when a tag needs the answer: the first time the runtime is asked whether a type
    /// conforms to a protocol (a cast asks it too), it searches every conformance of the program,
    /// Foundation's included in this statically linked binary. An optional's answers depend on
    /// whether it holds a value: asked each time.
    struct Kind {
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
    enum Frame {
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

    struct Renderer {
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
protocol OptionalValue {
    var wrapped: Any? { get }
}

extension Optional: OptionalValue {
    var wrapped: Any? { self }
}
