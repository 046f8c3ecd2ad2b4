import Foundation

/// Text from a source that people will read: in a terminal, a mail, a spreadsheet, a browser.
///
/// Control characters (Cc) can forge log lines; format characters (Cf: bidirectional overrides
/// such as U+202E, zero-width characters) reorder or hide what follows them, so that `"\u{202E}gnp.exe"`
/// reads as `exe.png`; line and paragraph separators (Zl, Zp) break a line where no newline is
/// seen; a mark or letter joined to a markup character (`"\u{301}`, `\u{D4E}<`) slips past
/// template escaping. A market identifier holding any of them is refused (the row is skipped
/// with a warning, never altered: two symbols must not become one); text quoted in a message
/// has them replaced.
package enum SourceText {
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    static func containsUnsafe(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isUnsafe) || text.contains(where: hidesMarkup)
    }

    static func isMarkup(_ scalar: Unicode.Scalar) -> Bool {
        "<>&\"'".unicodeScalars.contains(scalar)
    }

    /// A markup character sharing its character with another scalar. swift-mustache escapes
    /// whole characters, so `"\u{301}` or `\u{D4E}"` in a symbol would end an attribute of a page
    /// made with the user's own template. Swift's own grapheme breaking, which swift-mustache
    /// uses, is asked rather than a list of Unicode properties: marks join a character, but so do
    /// emoji skin tones (U+1F3FB), some letters (Thai U+0E33) and letters that join the next one
    /// (Malayalam U+0D4E), and the rules grow with Unicode.
    static func hidesMarkup(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        return scalars.index(after: scalars.startIndex) != scalars.endIndex && scalars.contains(where: isMarkup)
    }

    /// A value quoted back to the user (a flag's, a variable's) with every unsafe character
    /// shown as an escape (`\n`, `\u{202E}`): the message stays one line that reads as typed,
    /// and shows what was wrong with the value.
    package static func escaped(_ text: String) -> String {
        guard containsUnsafe(text) else { return text }
        var shown = ""
        for character in text {
            let hides = hidesMarkup(character)
            for scalar in character.unicodeScalars {
                switch scalar {
                case "\n": shown += "\\n"
                case "\r": shown += "\\r"
                case "\t": shown += "\\t"
                case _ where isUnsafe(scalar) || (hides && !isMarkup(scalar)):
                    shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                default: shown.unicodeScalars.append(scalar)
                }
            }
        }
        return shown
    }

    /// A message as one line on standard error: its line breaks (swift-argument-parser's
    /// messages have some) become spaces, and any other unsafe character an escape.
    package static func messageLine(_ text: String) -> String {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        return escaped(lines.filter { !$0.isEmpty }.joined(separator: " "))
    }

    /// Control characters and separators become spaces, format characters go, and so does
    /// whatever shares a character with a markup character. `quoted` when the text will stand
    /// between quotes, which a mark at its start or a prepending letter at its end would join.
    static func printable(_ text: String, quoted: Bool = false) -> String {
        var scalars = String.UnicodeScalarView()
        if quoted { scalars.append("\"") }
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: scalars.append(" ")
            case .format: continue
            default: scalars.append(scalar)
            }
        }
        if quoted { scalars.append("\"") }
        var visible = String(scalars)
        // Dropping scalars could in principle join what was left; repeat until nothing hides.
        while visible.contains(where: hidesMarkup) {
            var kept = String.UnicodeScalarView()
            for character in visible {
                if hidesMarkup(character) {
                    kept.append(contentsOf: character.unicodeScalars.filter(isMarkup))
                } else {
                    kept.append(contentsOf: character.unicodeScalars)
                }
            }
            visible = String(kept)
        }
        guard quoted else { return visible }
        return String(visible.unicodeScalars.dropFirst().dropLast())
    }
}
