import Foundation
import Testing

/// Issue 32, row 10: SIGTERM or SIGHUP arriving during certain writes was lost (exit 0, no
/// "stopped by" line). A C shim preloaded into the binary (`Fixtures/signal-at-write.c`) sends the
/// signal just before the run's Nth write to a file, at points spread over the whole run: the
/// reports' staging, the journal, the history's pages and the commit.
extension ExecutableTests {
    @Test("a signal arriving at the run's Nth write, for N over the whole run, ends it as stopped (129/143) with its line and no temporary file")
    func signalAtWrites() throws {
        let folder = try TemporaryFolder()
        let shim = folder.url.appendingPathComponent("signal-at-write.so")
        let compile = Process()
        // The system's C compiler, else the Swift toolchain's clang.
        compile.executableURL = URL(fileURLWithPath: "/bin/sh")
        compile.arguments = [
            "-c", #"if command -v cc >/dev/null; then exec cc "$@"; else exec clang "$@"; fi"#, "compile",
            "-shared", "-fPIC", "-o", shim.path, Fixtures.fixturesFolder.appendingPathComponent("signal-at-write.c").path, "-ldl",
        ]
        try compile.run()
        compile.waitUntilExit()
        try #require(compile.terminationStatus == 0, "the shim compiles (cc)")
        // Every one of the first 24 writes, then every 13th: some 40 runs over the run's 250-odd writes.
        var signalled = 0
        for point in Array(1...24) + Array(stride(from: 30, through: 600, by: 13)) {
            let output = "o\(point)"
            let mark = folder.url.appendingPathComponent("mark-\(point)")
            let hangUp = point % 2 == 0
            let run = try Self.run(
                ["--sample", "--no-config", "--format", "csv,json,markdown", "--output", output, "--history", output + "/h.sqlite"], in: folder.url,
                environment: [
                    "LD_PRELOAD": shim.path, "SIGNAL_AT_WRITE": "\(point)", "SIGNAL_MARK": mark.path, "SIGNAL_WHICH": hangUp ? "HUP" : "TERM",
                ])
            guard FileManager.default.fileExists(atPath: mark.path) else {
                // Past the run's last write: no signal, a plain run.
                #expect(run.status == 0, "\(run.stderr)")
                break
            }
            signalled += 1
            #expect(
                run.status == (hangUp ? 129 : 143) && run.stderr.contains("stopped by \(hangUp ? "SIGHUP" : "SIGTERM")"),
                "write \(point): exit \(run.status), \(run.stderr)")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent(output).path)) ?? []
            #expect(!left.contains { $0.hasSuffix(".tmp") || $0.hasPrefix(".cryptoreport-journal") }, "write \(point): \(left)")
        }
        #expect(signalled > 30, "the run has writes enough to spread the signal over")
    }
}
