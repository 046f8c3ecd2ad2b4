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
        var open = Substring("{{")
        var close = Substring("}}")
        var found: [Reference] = []
        var rest = Substring(text)
        // The standard library's search, not Foundation's `range(of:)`: that bridges the rest of
        // the text to UTF-16 at every tag, which made this check a seventh of a report's time.
        while let start = rest.firstRange(of: open) {
            let afterOpen = rest[start.upperBound...]
            guard let end = afterOpen.firstRange(of: close) else { break }
            var tag = afterOpen[..<end.lowerBound]
            rest = afterOpen[end.upperBound...]
            // `{{{name}}}`: the third brace belongs to the tag.
            if tag.hasPrefix("{"), rest.hasPrefix("}") { rest = rest.dropFirst() }
            tag = tag.drop(while: \.isWhitespace)
            guard let kind = tag.first else { continue }
            switch kind {
            case "=":
                let body = tag.dropFirst().reversed().drop(while: { $0.isWhitespace }).drop(while: { $0 == "=" })
                let parts = String(body.reversed()).split(whereSeparator: \.isWhitespace)
                if parts.count == 2 {
                    open = Substring(parts[0])
                    close = Substring(parts[1])
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
}
