import CryptoReport
import Foundation
import Logging

/// An HTTP client that answers from a script, one response (or error) per call, and records calls.
final class ScriptedHTTPClient: HTTPClient, @unchecked Sendable {
    enum Step {
        case respond(HTTPResponse)
        case fail(FetchError)
    }

    private let lock = NSLock()
    private var steps: [Step]
    private(set) var calls: [URL] = []

    init(_ steps: [Step]) {
        self.steps = steps
    }

    var callCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return calls.count
    }

    func get(_ url: URL, timeout: TimeInterval, maximumBytes: Int, source: DataSource) async throws -> HTTPResponse {
        let step = lock.withLock {
            calls.append(url)
            return steps.isEmpty ? nil : steps.removeFirst()
        }
        switch step {
        case let .respond(response)?: return response
        case let .fail(error)?: throw error
        case nil: throw FetchError.unreachable(source: source, location: url.absoluteString, reason: "script ran out")
        }
    }
}

/// Records how long the code asked to wait, and returns at once.
final class RecordingSleeper: Sleeper, @unchecked Sendable {
    private let lock = NSLock()
    private var waits: [TimeInterval] = []

    var recorded: [TimeInterval] {
        lock.lock()
        defer { lock.unlock() }
        return waits
    }

    func sleep(seconds: TimeInterval) async throws {
        lock.withLock { waits.append(seconds) }
    }
}

/// An HTTP client with a script per source, for the two fetches that run at once.
final class PerSourceHTTPClient: HTTPClient, @unchecked Sendable {
    private let lock = NSLock()
    private var scripts: [DataSource: [ScriptedHTTPClient.Step]]
    private var counts: [DataSource: Int] = [:]

    init(_ scripts: [DataSource: [ScriptedHTTPClient.Step]]) {
        self.scripts = scripts
    }

    func calls(_ source: DataSource) -> Int {
        lock.withLock { counts[source] ?? 0 }
    }

    func get(_ url: URL, timeout: TimeInterval, maximumBytes: Int, source: DataSource) async throws -> HTTPResponse {
        let step = lock.withLock { () -> ScriptedHTTPClient.Step? in
            counts[source, default: 0] += 1
            guard var script = scripts[source], !script.isEmpty else { return nil }
            let step = script.count > 1 ? script.removeFirst() : script[0]
            scripts[source] = script
            return step
        }
        switch step {
        case let .respond(response)?: return response
        case let .fail(error)?: throw error
        case nil: throw FetchError.unreachable(source: source, location: url.absoluteString, reason: "no script")
        }
    }
}

/// A `Logger` whose messages a test can read.
final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    var messages: [String] { lock.withLock { recorded } }

    var logger: Logger {
        Logger(label: "test") { _ in Handler(recorder: self) }
    }

    fileprivate func append(_ message: String) { lock.withLock { recorded.append(message) } }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.append(event.message.description)
        }
    }
}
