import Mustache

/// `{{% CONTENT_TYPE: MARKDOWN}}`: escapes what would let text from the API break a GitHub
/// table or turn into markup.
struct MarkdownContentType: MustacheContentType {
    static let name = "MARKDOWN"

    /// Registration is global in swift-mustache; do it once, on first use.
    static let registered: Void = {
        MustacheContentTypes.register(MarkdownContentType(), named: name)
    }()

    func escapeText(_ text: String) -> String {
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
}
