package import Foundation

/// Decodes WazirX's `GET /api/v2/market-status` into what each asset is called: its `assets`
/// list, each `type` (the asset, `btc`) with its `name` (`Bitcoin`); the `markets` list is not read.
///
/// A name is feed text that people read beside a symbol, so it is judged as a symbol is (no
/// control, format or separator character, nothing hidden in a markup character) and more
/// strictly: no markup character at all, and a bound on its length. An entry that fails is left
/// out with a diagnostic, never altered; only a body with no usable name at all is an error.
package struct AssetNamesDecoder: Sendable {
    package init() {}

    package struct Result: Sendable, Equatable {
        /// Each name by its asset, lower case: `["btc": "Bitcoin"]`.
        package var names: [String: String]
        /// Entries in the body's `assets`, usable or not.
        package var received: Int
        package var diagnostics: [Diagnostic]

        package init(names: [String: String] = [:], received: Int = 0, diagnostics: [Diagnostic] = []) {
            self.names = names
            self.received = received
            self.diagnostics = diagnostics
        }
    }

    /// The longest name kept, in characters: WazirX's longest is 24 ("Money Guru Digital Token").
    static let maximumNameLength = 64
    static let expected = "a JSON object with an assets list"
    private static let source = DataSource.wazirxAssets

    package func decode(_ data: Data) throws(DataError) -> Result {
        let body = try TickerDecoder.decodeJSON(data, as: Body.self, source: Self.source, expected: Self.expected)
        var result = Result(received: body.assets.count)
        for (index, entry) in body.assets.enumerated() {
            let position = "asset #\(index + 1)"
            guard let asset = entry.asset.flatMap(Self.asset) else {
                result.diagnostics.append(
                    Diagnostic(
                        Self.source,
                        "left out \(position): no type, or not a plain string of up to \(TickerDecoder.maximumIdentifierLength) characters",
                        group: "no usable asset"))
                continue
            }
            guard let name = entry.name.flatMap(Self.name) else {
                let quoted = entry.name?.quoted ?? "(none)"
                result.diagnostics.append(
                    Diagnostic(
                        Self.source,
                        "left out \(position) (\(asset)): name \(quoted) is not plain text of up to \(Self.maximumNameLength) characters",
                        group: "name left out"))
                continue
            }
            guard result.names[asset] == nil else {
                result.diagnostics.append(
                    Diagnostic(
                        Self.source, "left out \(position) (\(asset)): the asset appeared before; the first name is kept",
                        group: "the asset appeared before"))
                continue
            }
            result.names[asset] = name
        }
        guard !result.names.isEmpty else {
            let first = result.diagnostics.first?.decoderNote.map { "first: \($0)" }
            throw .malformed(
                source: Self.source, expected: Self.expected,
                detail: "none of the \(result.received) assets has a usable name" + (first.map { "; \($0)" } ?? ""))
        }
        return result
    }

    /// The asset as a symbol's asset is accepted (`TickerDecoder`), lower case.
    static func asset(_ value: JSONScalar) -> String? {
        guard let raw = value.text else { return nil }
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= TickerDecoder.maximumIdentifierLength, !SourceText.containsUnsafe(text) else { return nil }
        return text.lowercased()
    }

    /// The name as sent, less the blanks around it; `nil` when it is not one line of plain text.
    static func name(_ value: JSONScalar) -> String? {
        guard let raw = value.text else { return nil }
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.count <= maximumNameLength, !SourceText.containsUnsafe(text),
            !text.unicodeScalars.contains(where: SourceText.isMarkup)
        else { return nil }
        return text
    }

    struct Body: Decodable {
        var assets: [Entry]
    }

    /// One entry of `assets`, whatever its shape: a field of another type, or an entry that is
    /// not an object, is read as missing, so that it is left out alone.
    struct Entry: Decodable {
        var asset: JSONScalar?
        var name: JSONScalar?

        init(from decoder: any Decoder) throws {
            guard let fields = try? decoder.container(keyedBy: AnyCodingKey.self) else { return }
            asset = try? fields.decodeIfPresent(JSONScalar.self, forKey: AnyCodingKey(stringValue: "type"))
            name = try? fields.decodeIfPresent(JSONScalar.self, forKey: AnyCodingKey(stringValue: "name"))
        }
    }
}
