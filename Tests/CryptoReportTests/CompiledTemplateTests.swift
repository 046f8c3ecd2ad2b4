import Foundation
import Mustache
import Testing

@testable import CryptoReport

/// `CompiledTemplate` renders what swift-mustache renders, byte for byte: random templates of every
/// construct it follows (and some it leaves to swift-mustache), over random data.
@Suite("CompiledTemplate renders what swift-mustache renders")
struct CompiledTemplateTests {
    /// A value that answers no lookup itself: read through `Mirror`, as swift-mustache reads it.
    struct Plain {
        var name: String
        var flag: Bool?
        var items: [String]
    }

    static let names = ["a", "b", "list", "flag", "name", "items", "none", "a.b", "list.a", ".", ".a", "empty", "nested.list"]

    /// Text pieces with every kind of whitespace and brace the parser treats specially.
    static let texts = ["x", " ", "  ", "\t", "\n", "\r\n", "\r", "{", "}", "a b", "é", "<p>", "|", "\u{2028}"]

    static func tag(_ random: inout NumberReferenceTests.SeededGenerator, depth: Int) -> String {
        let name = names.randomElement(using: &random) ?? "a"
        let pad = Bool.random(using: &random) ? " " : ""
        switch Int.random(in: 0..<12, using: &random) {
        case 0, 1: return "{{\(pad)\(name)\(pad)}}"
        case 2: return "{{{\(name)}}}"
        case 3: return "{{&\(name)}}"
        case 4: return "{{! a comment }\n}}"
        case 5 where depth < 3, 6 where depth < 3, 7 where depth < 3:
            let kind = Bool.random(using: &random) ? "#" : "^"
            let inner = template(&random, depth: depth + 1)
            let close = Int.random(in: 0..<20, using: &random) == 0 ? "other" : name
            return "{{\(kind)\(name)}}\(inner){{/\(close)}}"
        case 8: return "{{% CONTENT_TYPE: \(["TEXT", "HTML", "MARKDOWN"].randomElement(using: &random) ?? "TEXT")}}"
        case 9:
            // What `CompiledTemplate` leaves to swift-mustache, and malformed tags.
            return ["{{> part}}", "{{=<% %>=}}", "{{uppercased(name)}}", "{{#a}", "{{", "{{name", "}}"].randomElement(using: &random) ?? ""
        default: return texts.randomElement(using: &random) ?? ""
        }
    }

    static func template(_ random: inout NumberReferenceTests.SeededGenerator, depth: Int = 0) -> String {
        (0..<Int.random(in: 0...8, using: &random)).map { _ in
            Int.random(in: 0..<3, using: &random) == 0 ? texts.randomElement(using: &random) ?? "" : tag(&random, depth: depth)
        }.joined()
    }

    static func value(_ random: inout NumberReferenceTests.SeededGenerator, depth: Int = 0) -> Any? {
        switch Int.random(in: 0..<(depth < 2 ? 9 : 5), using: &random) {
        case 0: return ["plain", "", "<b>&\"'", "a|b*c_d", "x\ny", "0"].randomElement(using: &random)
        case 1: return Bool.random(using: &random)
        case 2: return Int.random(in: -3...3, using: &random)
        case 3: return nil
        case 4:
            return [Optional<String>.none as Any, Optional("w") as Any, Optional(true) as Any, Optional(false) as Any, NSNull()].randomElement(using: &random)
        case 5: return (0..<Int.random(in: 0...3, using: &random)).map { _ in object(&random, depth: depth + 1) }
        case 6: return object(&random, depth: depth + 1)
        case 7: return Plain(name: "p<", flag: Bool.random(using: &random) ? true : nil, items: ["i", "j"])
        default: return [String]()
        }
    }

    static func object(_ random: inout NumberReferenceTests.SeededGenerator, depth: Int) -> [String: Any] {
        var object: [String: Any] = [:]
        for name in ["a", "b", "list", "flag", "name", "items", "nested", "empty"] where Bool.random(using: &random) {
            if let value = value(&random, depth: depth) { object[name] = value }
        }
        return object
    }

    @Test("3,000 random templates over random data")
    func random() throws {
        _ = MarkdownContentType.registered
        var random = NumberReferenceTests.SeededGenerator(state: 29)
        var compared = 0, leftToMustache = 0
        for _ in 0..<3000 {
            let text = Self.template(&random)
            let data = Self.object(&random, depth: 0)
            let theirs = try? MustacheTemplate(string: text)
            guard let ours = CompiledTemplate(text) else {
                leftToMustache += 1
                continue
            }
            // What swift-mustache refuses, `CompiledTemplate` refuses too.
            let template = try #require(theirs, "swift-mustache refuses what CompiledTemplate took: \(text.debugDescription)")
            let expected = template.render(data)
            #expect(ours.render(data) == expected, "\(text.debugDescription) over \(data)")
            compared += 1
        }
        // Both kinds are drawn often enough to mean something.
        #expect(compared > 1000 && leftToMustache > 300, "\(compared) compared, \(leftToMustache) left to swift-mustache")
    }

    @Test("the bytes each content type escapes, as masks, are the ones it escapes")
    func escapedBytes() {
        for byte in UInt8.min...UInt8.max {
            #expect(CompiledTemplate.escapesInHTML(byte) == Array("<>&\"'".utf8).contains(byte), "\(byte)")
            #expect(MarkdownContentType.isSpecial(byte) == Array("\\|*_`[]~#<>&\n\r\t".utf8).contains(byte), "\(byte)")
        }
    }

    @Test("a rendering stops once past its size limit: sections over a list nested four deep")
    func sizeLimit() throws {
        let template = try #require(CompiledTemplate("{{#items}}{{#items}}{{#items}}{{#items}}{{.}}{{/items}}{{/items}}{{/items}}{{/items}}"))
        let items = (0..<200).map { "item \($0)" }
        let text = template.render(["items": items], sizeLimit: 1 << 16)
        #expect(text.utf8.count > 1 << 16 && text.utf8.count < 1 << 17)
    }

    @Test("the built-in templates are all compiled")
    func builtIn() {
        for name in ["report.html", "report.md", "index.html"] {
            #expect(TemplateRenderer.builtIn(name) != nil, "\(name)")
        }
    }

    @Test("standalone lines vanish, inline tags keep their line, a list and an empty list")
    func examples() throws {
        let template = try #require(CompiledTemplate("<ul>\n  {{#items}}\n  <li>{{.}}</li>\n  {{/items}}\n</ul>{{^none}} none{{/none}}\n"))
        #expect(template.render(["items": ["a<", "b"]]) == "<ul>\n  <li>a&lt;</li>\n  <li>b</li>\n</ul> none\n")
        #expect(template.render(["items": [String]()]) == "<ul>\n</ul> none\n")
    }
}
