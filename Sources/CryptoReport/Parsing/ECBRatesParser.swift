import CLibXML2
package import Foundation

/// Reads the ECB euro reference rates (`eurofxref-daily.xml`, or a history file with one
/// `Cube time=…` per day) with libxml2.
///
/// The parser is locked down: no network, no DTD loading, no entity substitution, and a bounded
/// input size. Elements are matched by local name *and* namespace, so a look-alike `Cube` in another
/// namespace is never read as a rate.
package struct ECBRatesParser: Sendable {
    package static let namespace = "http://www.ecb.int/vocabulary/2002-08-01/eurofxref"
    private static let expected = "the ECB eurofxref XML"

    /// Documents larger than this are refused before libxml2 sees them.
    package var maximumBytes: Int

    package init(maximumBytes: Int = 10 * 1024 * 1024) {
        self.maximumBytes = maximumBytes
    }

    /// The newest day in the document.
    package func parseLatest(_ data: Data) throws(DataError) -> ExchangeRates {
        guard let newest = try parseDays(data).first else { throw Self.noDay }
        return newest
    }

    /// Every day in the document, newest first, at least one: a report picks the day in effect
    /// at the time of its tickers (`TARGETCalendar.ratesInEffect`).
    package func parseAvailable(_ data: Data) throws(DataError) -> [ExchangeRates] {
        let days = try parseDays(data)
        guard !days.isEmpty else { throw Self.noDay }
        return days
    }

    static let noDay = DataError.noRates(detail: "the document has no Cube element whose time is a date such as 2022-11-21")

    /// Every day in the document, newest first.
    package func parseDays(_ data: Data) throws(DataError) -> [ExchangeRates] {
        try Self.checkBeforeParsing(data, maximumBytes: maximumBytes)
        let document = try Self.readDocument(data)
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else {
            throw .malformed(source: .rates, expected: Self.expected, detail: "the document has no root element")
        }
        if Self.localName(root).lowercased() == "html" {
            throw .htmlInsteadOfData(source: .rates, expected: Self.expected)
        }
        // The ECB sends no DTD. One could still supply attribute defaults (a rate, a date) that
        // are not in the document, or entities in an encoding the byte check above cannot see.
        if document.pointee.intSubset != nil || document.pointee.extSubset != nil {
            throw .malformed(source: .rates, expected: Self.expected, detail: "it declares a DTD, which the ECB never sends")
        }
        return Self.collectDays(under: root)
    }

    // MARK: - libxml2

    /// No network, no messages on stderr; and no entity substitution nor DTD loading, which are
    /// off unless asked for (refused anyway, before and after parsing). Both ECB readers use these.
    static let options = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)

    static let initialise: Void = {
        xmlInitParser()
        cryptoreport_xmlSilenceErrors()
    }()

    /// The checks on the raw bytes that both ECB readers make before libxml2 sees a document.
    static func checkBeforeParsing(_ data: Data, maximumBytes: Int, expected: String = expected) throws(DataError) {
        guard let first = data.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) else {
            throw .empty(source: .rates)
        }
        guard data.count <= maximumBytes else {
            throw .malformed(source: .rates, expected: expected, detail: "larger than \(maximumBytes) bytes")
        }
        guard first == UInt8(ascii: "<") || first == 0xEF || first == 0xFE || first == 0xFF else {
            throw .malformed(source: .rates, expected: expected, detail: "the body does not start with XML markup")
        }
        // libxml2's tree parser takes a NUL as the end of the document and keeps what came before,
        // while its streaming reader calls it an error: refuse it, as XML does in any encoding.
        if containsNUL(data) {
            throw .malformed(source: .rates, expected: expected, detail: "it contains a NUL character, which XML does not allow")
        }
        if let encoding = XMLPrologue.declaredEncoding(data), !XMLPrologue.readableEncodings.contains(encoding.lowercased()) {
            throw .malformed(
                source: .rates, expected: expected,
                detail: "it declares the encoding \"\(TickerDecoder.oneLine(encoding, limit: 40))\"; UTF-8, UTF-16, ISO-8859-1 or US-ASCII is read")
        }
        // The ECB never declares entities; a document that does is refused outright, whatever
        // libxml2's own entity limits would make of it.
        if data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw .malformed(source: .rates, expected: expected, detail: "it declares XML entities, which the ECB never sends")
        }
    }

    /// A U+0000 character: a zero byte in an 8-bit document, a zero code unit in UTF-16.
    static func containsNUL(_ data: Data) -> Bool {
        // Scanned in place: the body may be tens of megabytes.
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard case .utf16 = XMLPrologue.width(of: bytes) else { return bytes.contains(0) }
            return stride(from: 0, to: bytes.count - 1, by: 2).contains { bytes[$0] == 0 && bytes[$0 + 1] == 0 }
        }
    }

    private static func readDocument(_ data: Data) throws(DataError) -> xmlDocPtr {
        _ = initialise
        guard let context = xmlNewParserCtxt() else {
            throw .malformed(source: .rates, expected: expected, detail: "libxml2 could not start a parser")
        }
        defer { xmlFreeParserCtxt(context) }
        let document = data.withUnsafeBytes { raw -> xmlDocPtr? in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self) else { return nil }
            return xmlCtxtReadMemory(context, base, Int32(raw.count), "eurofxref.xml", nil, Self.options)
        }
        guard let document else {
            if looksLikeHTML(data) { throw .htmlInsteadOfData(source: .rates, expected: expected) }
            throw .malformed(source: .rates, expected: expected, detail: lastError(context))
        }
        return document
    }

    private static func lastError(_ context: xmlParserCtxtPtr) -> String {
        guard let error = xmlCtxtGetLastError(context), let message = error.pointee.message else {
            return "not well-formed XML"
        }
        // libxml2's messages can run over two lines (the offending bytes on the second).
        let text = String(cString: message).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return "line \(error.pointee.line): \(text)"
    }

    private static func looksLikeHTML(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(512), as: UTF8.self).lowercased()
        return head.contains("<!doctype html") || head.contains("<html")
    }

    // MARK: - Tree

    private static func collectDays(under root: xmlNodePtr) -> [ExchangeRates] {
        var days: [ExchangeRates] = []
        // Iterative walk in document order: the depth of a hostile document must not decide our
        // stack depth (a repeated date is one day: `newestFirst`).
        var stack: [xmlNodePtr] = [root]
        while let node = stack.popLast() {
            guard node.pointee.type == XML_ELEMENT_NODE else { continue }
            switch dayElement(node) {
            case let .day(day):
                days.append(day)
                continue
            case .undated:
                continue
            case .notADay:
                break
            }
            var children: [xmlNodePtr] = []
            var child = node.pointee.children
            while let current = child {
                children.append(current)
                child = current.pointee.next
            }
            stack.append(contentsOf: children.reversed())
        }
        return newestFirst(days)
    }

    /// What an element is to the rates: the streaming history reader asks the same question of
    /// each subtree it expands, so that both readers keep exactly the same days.
    enum DayElement {
        /// A `Cube` with a `time` that is a date: that day's rates, its direct `Cube` children.
        case day(ExchangeRates)
        /// A `Cube` whose `time` is not a real date: it cannot be dated honestly, so it and
        /// everything in it is left out.
        case undated
        /// Anything else: look inside.
        case notADay
    }

    static func dayElement(_ node: xmlNodePtr) -> DayElement {
        guard isCube(node), let time = attribute("time", of: node) else { return .notADay }
        guard isISODate(time) else { return .undated }
        var day = ExchangeRates(date: time, perEuro: [:])
        var child = node.pointee.children
        while let current = child {
            child = current.pointee.next
            guard current.pointee.type == XML_ELEMENT_NODE, isCube(current),
                let currency = attribute("currency", of: current), let text = attribute("rate", of: current)
            else { continue }
            day.record(currency: currency, rate: text)
        }
        return .day(day)
    }

    /// Newest first, each date once. A date given twice is one day, read as if its rates came in
    /// one block: a currency repeated with the same rate is one rate, and with a different one is
    /// ambiguous (`ExchangeRates.record`), so that neither is used silently.
    static func newestFirst(_ days: [ExchangeRates]) -> [ExchangeRates] {
        var merged: [String: ExchangeRates] = [:]
        var order: [String] = []
        for day in days {
            guard var first = merged[day.date] else {
                merged[day.date] = day
                order.append(day.date)
                continue
            }
            for (currency, rate) in day.perEuro.sorted(by: { $0.key < $1.key }) { first.record(currency: currency, rate: "\(rate)") }
            for (currency, text) in day.invalid.sorted(by: { $0.key < $1.key }) { first.record(currency: currency, rate: text) }
            for (currency, rates) in day.ambiguous.sorted(by: { $0.key < $1.key }) {
                for rate in rates { first.record(currency: currency, rate: "\(rate)") }
            }
            merged[day.date] = first
        }
        return order.compactMap { merged[$0] }.sorted { $0.date > $1.date }
    }

    /// A real calendar date written YYYY-MM-DD: dates are compared as text, so `2022-13-45`
    /// would otherwise sort after every real one.
    static func isISODate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10,
            bytes.enumerated().allSatisfy({ index, byte in
                index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (0x30...0x39).contains(byte)
            })
        else { return false }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]), parts[2] >= 1 else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        guard let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: 1)),
            let days = calendar.range(of: .day, in: .month, for: date)
        else { return false }
        return days.contains(parts[2])
    }

    static func isCube(_ node: xmlNodePtr) -> Bool {
        guard localName(node) == "Cube", let href = node.pointee.ns?.pointee.href else { return false }
        return String(cString: href) == namespace
    }

    private static func localName(_ node: xmlNodePtr) -> String {
        guard let name = node.pointee.name else { return "" }
        return String(cString: name)
    }

    private static func attribute(_ name: String, of node: xmlNodePtr) -> String? {
        guard let value = xmlGetNoNsProp(node, name) else { return nil }
        defer { cryptoreport_xmlFree(value) }
        return String(cString: value)
    }
}
