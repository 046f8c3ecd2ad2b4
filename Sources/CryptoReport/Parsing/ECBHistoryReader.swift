import CLibXML2
import Foundation

/// Reads an ECB history file (`eurofxref-hist-90d.xml`: one `Cube time=…` per day) with
/// libxml2's streaming reader, so a long history never becomes a tree in memory.
///
/// Same guards as `ECBRatesParser`: no network, no entities, no DTD, bounded size.
public struct ECBHistoryReader: Sendable {
    public var maximumBytes: Int

    public init(maximumBytes: Int = 50 * 1024 * 1024) {
        self.maximumBytes = maximumBytes
    }

    private static let expected = "the ECB eurofxref history XML"

    /// Every day in the document, newest first.
    public func read(_ data: Data) throws(DataError) -> [ExchangeRates] {
        try ECBRatesParser.checkBeforeParsing(data, maximumBytes: maximumBytes, expected: Self.expected)
        // A DTD is refused before parsing when it is spelt in ASCII, and otherwise (UTF-16) as its
        // node comes by, before the first element: either way before an entity or attribute default
        // it declares can reach a rate.
        if data.range(of: Data("<!DOCTYPE".utf8)) != nil { throw Self.declaresDTD }
        _ = ECBRatesParser.initialise
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let outcome = data.withUnsafeBytes { raw -> Result<[ExchangeRates], DataError> in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self),
                let reader = xmlReaderForMemory(base, Int32(raw.count), "eurofxref-hist.xml", nil, options)
            else { return .failure(.malformed(source: .rates, expected: Self.expected, detail: "libxml2 could not start a reader")) }
            defer { xmlFreeTextReader(reader) }
            return Self.days(from: reader)
        }
        let days = try outcome.get()
        guard !days.isEmpty else { throw .noRates(detail: "the history has no Cube element with a time attribute") }
        return days.sorted { $0.date > $1.date }
    }

    private static func days(from reader: xmlTextReaderPtr) -> Result<[ExchangeRates], DataError> {
        var days: [ExchangeRates] = []
        var current: ExchangeRates?
        var currentDepth: Int32 = -1
        while true {
            let status = xmlTextReaderRead(reader)
            if status == 0 { break }
            guard status == 1 else {
                return .failure(.malformed(source: .rates, expected: expected, detail: "not well-formed XML"))
            }
            let type = xmlTextReaderNodeType(reader)
            if type == Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue) { return .failure(declaresDTD) }
            let depth = xmlTextReaderDepth(reader)
            if depth == 0, type == Int32(XML_READER_TYPE_ELEMENT.rawValue), localName(reader).lowercased() == "html" {
                return .failure(.htmlInsteadOfData(source: .rates, expected: expected))
            }
            if let day = current, depth <= currentDepth {
                days.append(day)
                current = nil
            }
            guard type == Int32(XML_READER_TYPE_ELEMENT.rawValue), isCube(reader) else { continue }
            if let time = attribute("time", reader), ECBRatesParser.isISODate(time) {
                current = ExchangeRates(date: time, perEuro: [:])
                currentDepth = depth
            } else if current != nil, let currency = attribute("currency", reader), let text = attribute("rate", reader) {
                current?.record(currency: currency, rate: text)
            }
        }
        if let day = current { days.append(day) }
        return .success(days)
    }

    private static let declaresDTD = DataError.malformed(
        source: .rates, expected: expected, detail: "it declares a DTD, which the ECB never sends")

    private static func isCube(_ reader: xmlTextReaderPtr) -> Bool {
        guard localName(reader) == "Cube", let uri = xmlTextReaderConstNamespaceUri(reader) else { return false }
        return String(cString: uri) == ECBRatesParser.namespace
    }

    private static func localName(_ reader: xmlTextReaderPtr) -> String {
        xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? ""
    }

    private static func attribute(_ name: String, _ reader: xmlTextReaderPtr) -> String? {
        guard let value = xmlTextReaderGetAttribute(reader, name) else { return nil }
        defer { cryptoreport_xmlFree(value) }
        return String(cString: value)
    }
}
