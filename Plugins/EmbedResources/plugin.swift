import Foundation
import PackagePlugin

/// Builds the library's copies of `Templates/` and `Samples/` from the files themselves, at build
/// time: the installed binary needs no file beside it, and a template's change is a diff of the
/// template alone. SwiftPM's `.embedInCode` resources would need the files inside the target and
/// compile each byte as an array element (minutes for the sample); this writes base64 strings.
@main
struct EmbedResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let root = context.package.directoryURL
        var inputs: [URL] = []
        for folder in ["Templates", "Samples"] {
            let url = root.appending(path: folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path(percentEncoded: false)).sorted()
            inputs += names.filter { [".mustache", ".css", ".js", ".json", ".xml"].contains(where: $0.hasSuffix) }.map { url.appending(path: $0) }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        return [
            .buildCommand(
                displayName: "Embedding Templates/ and Samples/", executable: try context.tool(named: "embed-resources").url,
                arguments: [output.path(percentEncoded: false)] + inputs.map { $0.path(percentEncoded: false) },
                inputFiles: inputs, outputFiles: [output])
        ]
    }
}
