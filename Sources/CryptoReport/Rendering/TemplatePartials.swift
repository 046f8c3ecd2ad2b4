import Foundation

/// The partials (`{{> name}}`) a Mustache template includes, found before anything is rendered.
///
/// swift-mustache resolves a partial only while rendering, and follows one that includes itself
/// until the stack overflows (SIGSEGV); its tokens are internal, so the tags are read here from
/// the text, honouring set-delimiter tags (`{{=<% %>=}}`) as its parser does.
enum TemplatePartials {
    /// How deep partials may include partials: far more than any report template needs.
    static let maximumDepth = 8
    /// How many partials one rendering may include (a section's repeats aside).
    static let maximumExpansions = 1000

    enum Reference: Equatable {
        /// `{{> name}}` or `{{< name}}` (a partial with blocks).
        case named(String)
        /// `{{>* name}}`: a name taken from the data, which no check before rendering can follow.
        case dynamic(String)
    }

    static func references(in text: String) -> [Reference] {
        // Searched as UTF-8 bytes: `Substring.range(of:)` compares whole Characters, slow over
        // a template the size of the HTML one.
        let bytes = Array(text.utf8)
        var open = Array("{{".utf8)
        var close = Array("}}".utf8)
        var found: [Reference] = []
        var position = 0
        while let start = Self.find(open, in: bytes, from: position) {
            guard let end = Self.find(close, in: bytes, from: start + open.count) else { break }
            var tag = Substring(String(decoding: bytes[(start + open.count)..<end], as: UTF8.self))
            position = end + close.count
            // `{{{name}}}`: the third brace belongs to the tag.
            if tag.hasPrefix("{"), position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1 }
            tag = tag.drop(while: \.isWhitespace)
            guard let kind = tag.first else { continue }
            switch kind {
            case "=":
                let body = tag.dropFirst().reversed().drop(while: { $0.isWhitespace }).drop(while: { $0 == "=" })
                let parts = String(body.reversed()).split(whereSeparator: \.isWhitespace)
                if parts.count == 2 {
                    open = Array(parts[0].utf8)
                    close = Array(parts[1].utf8)
                }
            case ">", "<":
                let name = tag.dropFirst().trimmingCharacters(in: .whitespaces)
                if name.hasPrefix("*") {
                    found.append(.dynamic(String(name.dropFirst()).trimmingCharacters(in: .whitespaces)))
                } else if !name.isEmpty {
                    found.append(.named(name))
                }
            default: continue
            }
        }
        return found
    }

    /// The first index of `needle` in `haystack` at or after `start`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == first && haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
