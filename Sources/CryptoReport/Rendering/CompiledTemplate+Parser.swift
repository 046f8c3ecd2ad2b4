extension CompiledTemplate {
    /// swift-mustache's parser (`MustacheTemplate.parse`), state for state, over an array of
    /// Characters: the same Characters it compares, read in linear time.
    struct Parser {
        let source: String
        let characters: [Character]
        /// Where each Character starts in `source`, and its end last: a text is cut from the
        /// source, not put together a Character at a time.
        let starts: [String.Index]
        var position = 0

        init(_ source: String) {
            self.source = source
            characters = Array(source)
            starts = Array(source.indices) + [source.endIndex]
        }

        /// The text of the Characters `start..<end`.
        func text(_ start: Int, _ end: Int) -> String { String(source[starts[start]..<starts[end]]) }

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
            skip(while: accepts)
            return text(start, position)
        }

        mutating func skip(while accepts: (Character) -> Bool) {
            while !atEnd, accepts(characters[position]) { position += 1 }
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
            let start = position
            while !atEnd {
                let character = characters[position]
                if character == "\n" || character == "\r\n" { break }
                if character == "{" {
                    guard position + 1 < characters.count else { return nil }
                    if characters[position + 1] == "{" {
                        position += 2
                        return text(start, position - 2)
                    }
                }
                position += 1
            }
            return text(start, position)
        }

        /// A tag's name and its `}}`; nil for a malformed tag or a transform (`name(x)`).
        mutating func readName() -> String? {
            skip(while: Self.isWhitespace)
            let name = read(while: Self.isNameCharacter)
            skip(while: Self.isWhitespace)
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
            skip(while: Self.isWhitespace)
            let variable = read(while: Self.isPlainNameCharacter)
            skip(while: Self.isWhitespace)
            guard current == ":" else { return nil }
            position += 1
            skip(while: Self.isWhitespace)
            let value = read(while: Self.isPlainNameCharacter)
            skip(while: Self.isWhitespace)
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
