import Foundation

/// `embed-resources OUTPUT FILE…`: writes OUTPUT, a Swift source holding each FILE as base64
/// (`EmbedResources`, the build plugin, runs it): the templates by name without `.mustache`, the
/// page's stylesheet and script by file name, and the `--sample` snapshot and the built-in asset
/// names byte for byte.
let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: embed-resources OUTPUT FILE…\n".utf8))
    exit(64)
}
var templates: [(String, String)] = []
var pageFiles: [(String, String)] = []
var samples: [String: String] = [:]

/// Base64 in lines of 100 characters, as a multi-line string literal's body.
func literal(_ data: Data) -> String {
    let encoded = data.base64EncodedString()
    var lines: [Substring] = []
    var start = encoded.startIndex
    while start < encoded.endIndex {
        let end = encoded.index(start, offsetBy: 100, limitedBy: encoded.endIndex) ?? encoded.endIndex
        lines.append(encoded[start..<end])
        start = end
    }
    return "\"\"\"\n" + lines.joined(separator: "\n") + "\n\"\"\""
}

for path in arguments.dropFirst().sorted() {
    let url = URL(fileURLWithPath: path)
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("embed-resources: cannot read \(path)\n".utf8))
        exit(66)
    }
    let name = url.lastPathComponent
    switch url.pathExtension {
    case "mustache": templates.append((String(name.dropLast(".mustache".count)), literal(data)))
    case "css", "js": pageFiles.append((name, literal(data)))
    default: samples[name] = literal(data)
    }
}

func entries(_ pairs: [(String, String)]) -> String {
    pairs.map { "        \"\($0.0)\": decode(\n\($0.1)),\n" }.joined()
}

let source = """
    // Generated at build time by the EmbedResources plugin from Templates/ and Samples/.
    public import Foundation

    /// Built-in copies of `Templates/*.mustache`, by name without the extension.
    enum EmbeddedTemplates {
        static let files: [String: String] = [
    \(entries(templates))    ]

        /// Built-in copies of the page's `Templates/*.css` and `Templates/*.js`, by file name.
        static let pageFiles: [String: String] = [
    \(entries(pageFiles))    ]

        private static func decode(_ base64: String) -> String {
            String(decoding: Data(base64Encoded: base64, options: .ignoreUnknownCharacters) ?? Data(), as: UTF8.self)
        }
    }

    /// The bundled real snapshot behind `--sample` (see Samples/SOURCES.md): WazirX's 450 tickers
    /// captured 2022-11-22 and the ECB reference rates of 2022-11-21, byte for byte; and WazirX's
    /// `market-status` of 2020-03-31, the names of its assets whenever the live list cannot be read.
    public enum EmbeddedSample {
        public static let tickersName = "tickers-24hr-2022-11-22.json"
        public static let ratesName = "eurofxref-daily-2022-11-21.xml"
        public static let assetNamesName = "market-status-2020-03-31.json"

        public static var tickers: Data { decode(tickersBase64) }
        public static var rates: Data { decode(ratesBase64) }
        public static var assetNames: Data { decode(assetNamesBase64) }

        private static func decode(_ base64: String) -> Data {
            Data(base64Encoded: base64, options: .ignoreUnknownCharacters) ?? Data()
        }

        private static let tickersBase64 = \(samples["tickers-24hr-2022-11-22.json"] ?? "\"\"")

        private static let ratesBase64 = \(samples["eurofxref-daily-2022-11-21.xml"] ?? "\"\"")

        private static let assetNamesBase64 = \(samples["market-status-2020-03-31.json"] ?? "\"\"")
    }

    """
do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("embed-resources: cannot write \(output): \(error)\n".utf8))
    exit(73)
}
