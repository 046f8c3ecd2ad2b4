import Foundation
import Testing

@testable import CryptoReport

/// When both sources fail, the tickers' error is the one reported, whichever failed sooner.
@Suite("Both sources failing")
struct BothSourcesFailingTests {
    struct Failed: Error, Equatable {
        var name: String
    }

    @Test("a network failure of the second waits: the first operation's error, even when the second fails sooner")
    func firstErrorWins() async {
        for _ in 0..<20 {
            do {
                _ = try await bothOrFirstFailure(
                    { () async throws -> Int in
                        try await Task.sleep(nanoseconds: 30_000_000)
                        throw Failed(name: "tickers")
                    },
                    { () async throws -> Int in throw Failed(name: "rates") }, secondWaitsForFirst: { _ in true })
                Issue.record("no error")
            } catch {
                #expect(error as? Failed == Failed(name: "tickers"))
            }
        }
    }

    @Test("the second's error when only it fails, once the first is done; the first's failure cancels the second")
    func onlyOneFails() async throws {
        await #expect(throws: Failed(name: "rates")) {
            _ = try await bothOrFirstFailure({ () async throws -> Int in 1 }, { () async throws -> Int in throw Failed(name: "rates") })
        }
        let cancelled = Flag()
        await #expect(throws: Failed(name: "tickers")) {
            _ = try await bothOrFirstFailure(
                { () async throws -> Int in throw Failed(name: "tickers") },
                { () async throws -> Int in
                    do {
                        try await Task.sleep(nanoseconds: 60_000_000_000)
                    } catch {
                        cancelled.set()
                        throw error
                    }
                    return 1
                })
        }
        #expect(cancelled.value, "the second was cancelled")
    }

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var raised = false
        func set() { lock.withLock { raised = true } }
        var value: Bool { lock.withLock { raised } }
    }

    @Test("a failure of the second for good stops the first's retries at once and is reported")
    func secondForGood() async {
        let cancelled = Flag()
        await #expect(throws: Failed(name: "rates")) {
            _ = try await bothOrFirstFailure(
                { () async throws -> Int in
                    do {
                        try await Task.sleep(nanoseconds: 60_000_000_000)
                    } catch {
                        cancelled.set()
                        throw error
                    }
                    throw Failed(name: "tickers")
                },
                { () async throws -> Int in throw Failed(name: "rates") }, secondWaitsForFirst: { _ in false })
        }
        #expect(cancelled.value, "the first's remaining work was cancelled")
    }

    @Test("both unreachable end to end: the tickers' error every time, exit 69")
    func bothUnreachable() throws {
        // A port nothing listens on: connections are refused at once, for both sources alike.
        let server = try LoopbackServer(routes: [:])
        let closed = server.url("")
        server.stop()
        let folder = try TemporaryFolder()
        var messages = Set<String>()
        for _ in 0..<4 {
            let run = try ExecutableTests.run(
                ["--tickers-url", closed + "/t", "--ecb-url", closed + "/r", "--retries", "0", "--output", "-", "--format", "csv", "--no-config"],
                in: folder.url)
            #expect(run.status == 69)
            messages.insert(run.stderr)
        }
        #expect(messages.count == 1, "\(messages)")
        #expect(messages.first?.hasPrefix("cryptoreport: WazirX tickers: ") == true, "\(messages)")
    }
}
