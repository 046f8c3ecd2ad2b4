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
        guard text.utf8.contains(where: isSpecial) else { return text }
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

    /// The bytes `escape` changes (a backslash, `|`, `*`, `_`, a backtick, `[`, `]`, `~`, `#`, `<`,
    /// `>`, `&`, line breaks and tabs), one bit each of two 64-bit masks.
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 64 ? (0x5000_0448_0000_2600 as UInt64) >> byte & 1 != 0 : byte < 128 && (0x5000_0001_B800_0000 as UInt64) >> (byte - 64) & 1 != 0
    }
}
