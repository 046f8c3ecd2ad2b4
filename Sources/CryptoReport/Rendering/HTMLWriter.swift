/// The built-in HTML page (`Templates/report.html.mustache`) written straight from the view model
/// into one preallocated string. Written by hand for the reason `MarkdownWriter` is: swift-mustache
/// finds every tag through the context stack (and `Mirror` for what answers no lookup of ours),
/// returns each section as a string of its own and joins them; here the page is written once,
/// into one buffer. A user's own `report.html.mustache` still goes through Mustache.
/// `HTMLWriterTests` renders both ways on every branch of the template
/// and requires the same bytes, so a change to the template not made here too fails there.
///
/// The page's parts are in `+Summary` (shown once per currency), `+Table` and `+Detail`. Each
/// `{{tag}}` of the template is `put`, each `{{{tag}}}` appended as it is; a section's lines that
/// stand alone in the template (`{{#hasAlerts}}` on a line of its own) leave nothing, as in Mustache.
struct HTMLWriter: ~Copyable {
    /// The page's bytes (`ByteBuffer`: why not an array, there).
    var out: ByteBuffer
    /// Where the bytes go a piece at a time when the page is streamed (`write(_:to:)`); nil
    /// while it is kept whole in `out`.
    private let sink: ((UnsafeRawBufferPointer) -> Void)?
    private let pieceSize: Int

    /// Bytes kept whole in `out`.
    init(capacity: Int = 0) {
        out = ByteBuffer(capacity: capacity)
        sink = nil
        pieceSize = .max
    }

    /// Bytes handed to `sink` in pieces of about `pieceSize` bytes, between markets.
    private init(pieceSize: Int, sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        out = ByteBuffer(capacity: min(pieceSize, 1 << 20) + 65_536)
        self.sink = sink
        self.pieceSize = pieceSize
    }

    static func render(_ model: ReportViewModel) -> String {
        // Room for a market's table row and detail (twice that with a second currency), so the
        // buffer seldom grows.
        let perRow = model.alternative.isEmpty ? 2600 : 4800
        var writer = HTMLWriter(
            capacity: 16_384 + model.pageStyle.utf8.count + model.pageScript.utf8.count + model.rows.count * perRow
                + model.views.reduce(0) { $0 + $1.historyData.utf8.count })
        writer.page(model)
        return writer.out.text
    }

    /// The same page written into `output`, handed on a piece at a time as it fills, so that the
    /// whole page is never in memory beside its view model.
    static func write(_ model: ReportViewModel, to output: inout ReportBytes) {
        // Through a pointer: `output` is noncopyable, and the compiler cannot yet check a
        // closure that captures it. The pointer is used only during this call.
        withUnsafeMutablePointer(to: &output) { output in
            var writer = HTMLWriter(pieceSize: 1 << 18) { output.pointee.append(piece: $0) }
            writer.page(model)
            writer.flush()
        }
    }

    /// The page handed to `sink` as text in pieces of about `pieceSize` bytes.
    static func write(_ model: ReportViewModel, pieceSize: Int = 1 << 20, to sink: @escaping (String) -> Void) {
        var writer = HTMLWriter(pieceSize: pieceSize) { sink(String(decoding: $0, as: UTF8.self)) }
        writer.page(model)
        writer.flush()
    }

    /// Called between markets: hands a full piece on when the page is streamed.
    mutating func flushIfFull() {
        if out.count >= pieceSize { flush() }
    }

    private mutating func flush() {
        guard let sink, !out.isEmpty else { return }
        out.withUnsafeBytes(sink)
        out.removeAll()
    }

    private mutating func page(_ model: ReportViewModel) {
        let t = model.t
        out += "<!DOCTYPE html>\n<html lang=\""; put(model.lang)
        out += "\">\n<head>\n<meta charset=\"utf-8\">\n"
        if model.isSwitchable { out += "<meta name=\"cryptoreport-currencies\" content=\""; put(model.currencyCodes); out += "\">\n" }
        out +=
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"color-scheme\" content=\"light dark\">\n<title"
        for alternative in model.alternative { out += " data-alt=\""; put(alternative.title); out += "\"" }
        out += ">"; put(model.title); out += "</title>\n<style>\n"
        out.append(model.pageStyle)
        out += "</style>\n</head>\n<body>\n<a class=\"skip\" href=\"#markets\">"; put(model.t[.skipToMarkets])
        out += "</a>\n<main id=\"page\" data-strings=\""; put(model.scriptStrings); out += "\">\n"
        if model.isSwitchable {
            out += "<div class=\"switch\" id=\"currency-switch\" role=\"group\" aria-label=\""; put(t[.currency]); out += "\" hidden>"
            for choice in model.currencyChoices {
                out += "<button type=\"button\" data-i=\""; put(choice.index); out += "\">"; put(choice.code); out += "</button>"
            }
            out += "</div>\n"
        }
        for view in model.views { summary(view) }
        out += "\n"
        table(model)
        out += "\n"
        for view in model.views { summaryAfterTable(view) }
        out += "\n"
        if model.hasConverter { converter(model) }
        out += "\n\n"
        if model.hasDetails { details(model) }
        flushIfFull()
        if model.hasWarnings {
            out += "<details class=\"card\">\n  <summary>"; put(t[.warnings]); out += " <span class=\"pill\">"; put(model.warningCount)
            out += "</span></summary>\n  <ul>\n"
            for warning in model.warnings { out += "    <li>"; put(warning.text); out += "</li>\n" }
            out += "  </ul>\n</details>\n"
        }
        out += "\n"
        for view in model.views { footer(view) }
        out += "\n</main>\n<script>\n"
        out.append(model.pageScript)
        out += "</script>\n</body>\n</html>\n"
    }

    private mutating func converter(_ model: ReportViewModel) {
        let t = model.t
        out += "<section class=\"card converter\" id=\"converter\" aria-label=\""; put(t[.converter])
        out += "\" data-rates=\""; put(model.converterData); out += "\" hidden>\n  <h2>"; put(t[.converter])
        out += "</h2>\n  <div class=\"conv\"><input id=\"conv-amount\" type=\"text\" inputmode=\"decimal\" value=\"1\" aria-label=\""; put(t[.amount])
        out += "\" autocomplete=\"off\" spellcheck=\"false\"><select id=\"conv-from\" aria-label=\""; put(t[.convertFrom])
        out += "\"></select><button type=\"button\" id=\"conv-swap\" class=\"swap\" aria-label=\""; put(t[.convertSwap])
        out += "\" title=\""; put(t[.convertSwap])
        out +=
            "\">⇄</button><span class=\"eq\" aria-hidden=\"true\">=</span><output id=\"conv-result\" for=\"conv-amount conv-from conv-to\"></output><select id=\"conv-to\" aria-label=\""
        put(t[.convertInto])
        out += "\"></select></div>\n  <p class=\"small\" id=\"conv-via\" data-via=\""; put(t[.via]); out += "\" data-ecb=\""; put(t[.ecbRatesOf])
        out += "\" data-bad=\""; put(t[.typeAmount]); out += "\"></p>\n</section>\n"
    }

    private mutating func footer(_ view: ReportViewModel) {
        let t = view.t
        if view.isSwitchable { out += "<div class=\"cur-"; put(view.viewIndex); out += "\">" }
        out += "<footer>\n  <h2>"; put(t[.sources]); out += "</h2>\n  <ul>\n"
        for source in view.sources {
            out += "    <li>"; put(source.name); out += ": "
            if source.isLink {
                out += "<a href=\""; put(source.url); out += "\">"; put(source.url); out += "</a>"
            } else {
                put(source.url)
            }
            out += " ("; put(t[.fetched]); out += " "; put(source.fetchedAt); out += ")</li>\n"
        }
        out += "  </ul>\n  <p>"; put(view.said.method); out += "</p>\n  <p>"; put(view.said.disclaimer); out += "</p>\n</footer>"
        if view.isSwitchable { out += "</div>" }
    }

    /// `{{text}}`: `text` escaped for HTML, as Mustache's HTML content type escapes it (`<`, `>`,
    /// `&`, `"` and `'`), but byte by byte: Mustache compares whole Characters, so a quote or `<`
    /// that a combining mark follows (`"\u{301}`) would pass it unescaped and end an attribute.
    mutating func put(_ text: String) {
        // Read in place (native and small strings, every one the model makes), without the copy
        // that `withUTF8` needs and its retain and release of each cell's string.
        if text.utf8.withContiguousStorageIfAvailable({ put(bytes: $0) }) == nil {
            var text = text
            text.withUTF8 { put(bytes: $0) }
        }
    }

    /// `put` of UTF-8 bytes: most texts (figures, names) hold nothing to escape and are
    /// appended whole, after one pass over a table.
    mutating func put(bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for index in 0..<bytes.count where Self.isSpecial(bytes[index]) {
            let replacement: StaticString
            switch bytes[index] {
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            default: replacement = "&#39;"
            }
            out.append(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            out += replacement
            start = index + 1
        }
        out.append(UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    /// The bytes `put` escapes (`"` 0x22, `&` 0x26, `'` 0x27, `<` 0x3C, `>` 0x3E), one bit each of
    /// a 64-bit mask, not a table in a static (a lazy global checked on every call).
    @inline(__always)
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 64 && (0x5000_00C4_0000_0000 as UInt64) >> byte & 1 != 0
    }
}
