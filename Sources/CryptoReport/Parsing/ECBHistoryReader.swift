import CLibXML2
package import Foundation

/// Reads an ECB history file (`eurofxref-hist-90d.xml`: one `Cube time=…` per day) with
/// libxml2's streaming reader, so a long history never becomes a tree in memory: one day's
/// subtree at a time is expanded and judged by `ECBRatesParser.dayElement`, so both readers keep
/// exactly the same days and rates (the fuzz harness `history` checks it).
///
/// Same guards as `ECBRatesParser`: no network, no entities, no DTD, bounded size.
package struct ECBHistoryReader: Sendable {
    package var maximumBytes: Int

    package init(maximumBytes: Int = 50 * 1024 * 1024) {
        self.maximumBytes = maximumBytes
    }

    private static let expected = "the ECB eurofxref history XML"

    /// Every day in the document, newest first.
    package func read(_ data: Data) throws(DataError) -> [ExchangeRates] {
        try ECBRatesParser.checkBeforeParsing(data, maximumBytes: maximumBytes, expected: Self.expected)
        _ = ECBRatesParser.initialise
        let outcome = data.withUnsafeBytes { raw -> Result<[ExchangeRates], DataError> in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self),
                let reader = xmlReaderForMemory(base, Int32(raw.count), "eurofxref-hist.xml", nil, ECBRatesParser.options)
            else { return .failure(.malformed(source: .rates, expected: Self.expected, detail: "libxml2 could not start a reader")) }
            defer { xmlFreeTextReader(reader) }
            return Self.days(from: reader)
        }
        let days = try outcome.get()
        guard !days.isEmpty else { throw .noRates(detail: "the history has no Cube element whose time is a date such as 2022-11-21") }
        return ECBRatesParser.newestFirst(days)
    }

    private static func days(from reader: xmlTextReaderPtr) -> Result<[ExchangeRates], DataError> {
        var days: [ExchangeRates] = []
        var status = xmlTextReaderRead(reader)
        while status == 1 {
            let type = xmlTextReaderNodeType(reader)
            // A DTD is refused as its node comes by, before the first element, so before an entity
            // or attribute default it declares can reach a rate; in any encoding. (Not by looking
            // for the bytes `<!DOCTYPE`: in UTF-16 they can straddle characters of a sound
            // document, which the tree parser reads. The fuzzer found one.)
            if type == Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue) { return .failure(declaresDTD) }
            guard type == Int32(XML_READER_TYPE_ELEMENT.rawValue) else {
                status = xmlTextReaderRead(reader)
                continue
            }
            if xmlTextReaderDepth(reader) == 0, localName(reader).lowercased() == "html" {
                return .failure(.htmlInsteadOfData(source: .rates, expected: expected))
            }
            // Only a Cube with a time is worth expanding; anything else is walked into.
            guard isCube(reader), hasAttribute("time", reader) else {
                status = xmlTextReaderRead(reader)
                continue
            }
            guard let node = xmlTextReaderExpand(reader) else { break }
            if case let .day(day) = ECBRatesParser.dayElement(node) { days.append(day) }
            // Past the day (or the undated Cube) and all it holds, as the tree walk does.
            status = xmlTextReaderNext(reader)
        }
        guard status == 0 else {
            return .failure(.malformed(source: .rates, expected: expected, detail: "not well-formed XML"))
        }
        return .success(days)
    }

    private static let declaresDTD = DataError.malformed(
        source: .rates, expected: expected, detail: "it declares a DTD, which the ECB never sends")

    private static func isCube(_ reader: xmlTextReaderPtr) -> Bool {
        guard localName(reader) == "Cube", let uri = xmlTextReaderConstNamespaceUri(reader) else { return false }
        return String(cString: uri) == ECBRatesParser.namespace
    }

    private static func hasAttribute(_ name: String, _ reader: xmlTextReaderPtr) -> Bool {
        guard let value = xmlTextReaderGetAttribute(reader, name) else { return false }
        cryptoreport_xmlFree(value)
        return true
    }

    private static func localName(_ reader: xmlTextReaderPtr) -> String {
        xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? ""
    }
}
