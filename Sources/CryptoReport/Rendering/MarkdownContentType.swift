import Mustache

/// `{{% CONTENT_TYPE: MARKDOWN}}`: escapes what would let text from the API break a GitHub
/// table or turn into markup.
struct MarkdownContentType: MustacheContentType {
    static let name = "MARKDOWN"

    /// Registration is global in swift-mustache; do it once, on first use.
    static let registered: Void = {
        MustacheContentTypes.register(MarkdownContentType(), named: name)
    }()

    func escapeText(_ text: String) -> String { Self.escape(text) }

    static func escape(_ text: String) -> String {
        // Most figures hold none of these: skip the copy.
        guard text.utf8.contains(where: { Self.special.contains($0) }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\", "|", "*", "_", "`", "[", "]", "~", "#":
                escaped.append("\\")
                escaped.unicodeScalars.append(scalar)
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "&": escaped += "&amp;"
            case "\n", "\r", "\t": escaped += " "
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static let special: Set<UInt8> = Set("\\|*_`[]~#<>&\n\r\t".utf8)
}
