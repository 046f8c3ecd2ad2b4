import Foundation

/// A program the tests use when it is installed (hledger, bean-check, LibreOffice): found on
/// PATH, run with a time limit's worth of patience, its output returned.
struct ExternalTool: Sendable {
    let url: URL

    init?(_ name: String) {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let folders = path.split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin"]
        guard
            let found = folders.lazy.map({ URL(fileURLWithPath: $0).appendingPathComponent(name) })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { return nil }
        url = found
    }

    static func installed(_ name: String) -> Bool { ExternalTool(name) != nil }

    /// Python 3 with Beancount's loader importable (`pip install beancount`).
    static let beancountPython: ExternalTool? = {
        guard let python = ExternalTool("python3"),
            let run = try? python.run(["-c", "import beancount.loader"]), run.status == 0
        else { return nil }
        return python
    }()

    func run(_ arguments: [String], in directory: URL? = nil) throws -> ExecutableTests.Run {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return .init(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
