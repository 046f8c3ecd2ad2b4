import Foundation

/// Text from a source that people will read: in a terminal, a mail, a spreadsheet, a browser.
///
/// Control characters (Cc) can forge log lines; format characters (Cf: bidirectional overrides
/// such as U+202E, zero-width characters) reorder or hide what follows them, so that `"\u{202E}gnp.exe"`
/// reads as `exe.png`; line and paragraph separators (Zl, Zp) break a line where no newline is
/// seen; a mark after a markup character (`"\u{301}`) slips past template escaping. A market
/// identifier holding any of them is refused (the row is skipped with a warning,
/// never altered: two symbols must not become one); text quoted in a message has them replaced.
package enum SourceText {
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    static func containsUnsafe(_ text: String) -> Bool {
        var afterMarkup = false
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) || (afterMarkup && combines(scalar)) { return true }
            afterMarkup = isMarkup(scalar)
        }
        return false
    }

    static func isMarkup(_ scalar: Unicode.Scalar) -> Bool {
        "<>&\"'".unicodeScalars.contains(scalar)
    }

    /// A mark that joins the character before it. After `"` or `<` it hides that character from
    /// swift-mustache's escaping, which compares whole characters: `"\u{301}` in a symbol would
    /// end an attribute of a page made with the user's own template.
    static func combines(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: scalar.properties.isGraphemeExtend
        }
    }

    /// A value quoted back to the user (a flag's, a variable's) with every unsafe character
    /// shown as an escape (`\n`, `\u{202E}`): the message stays one line that reads as typed,
    /// and shows what was wrong with the value.
    package static func escaped(_ text: String) -> String {
        guard containsUnsafe(text) else { return text }
        var shown = ""
        var afterMarkup = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            case _ where isUnsafe(scalar) || (afterMarkup && combines(scalar)):
                shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: shown.unicodeScalars.append(scalar)
            }
            afterMarkup = isMarkup(scalar)
        }
        return shown
    }

    /// A message as one line on standard error: its line breaks (swift-argument-parser's
    /// messages have some) become spaces, and any other unsafe character an escape.
    package static func messageLine(_ text: String) -> String {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        return escaped(lines.filter { !$0.isEmpty }.joined(separator: " "))
    }

    /// Control characters and separators become spaces, format characters go, and so does a
    /// mark after a markup character: `afterMarkup` when the text will follow one (a quote
    /// opened around it), as a mark at its start would then join that quote.
    static func printable(_ text: String, afterMarkup: Bool = false) -> String {
        var scalars = String.UnicodeScalarView()
        // What follows the last character written, not the last one read: a mark or format
        // character dropped leaves the next mark after the same markup (`"\u{301}\u{301}`).
        var afterMarkup = afterMarkup
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: scalars.append(" ")
            case .format: continue
            case _ where afterMarkup && combines(scalar): continue
            default: scalars.append(scalar)
            }
            afterMarkup = isMarkup(scalar)
        }
        return String(scalars)
    }
}
