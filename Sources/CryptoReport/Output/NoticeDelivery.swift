package import Foundation

/// Runs a shell command with the notice: a protocol so that tests run no shell.
package protocol CommandRunning: Sendable {
    /// nil when the command ran and exited 0; else why not, as a sentence's end.
    func run(_ command: String, input: Data, environment: [String: String], timeLimit: TimeInterval) async -> String?
}

/// `/bin/sh -c COMMAND`, its standard output and error passed through to the run's standard error.
/// Foundation starts it in a process group of its own, so that a command past its time limit is
/// stopped with everything it started, not only the shell.
package struct ShellCommandRunner: CommandRunning {
    package init() {}

    package func run(_ command: String, input: Data, environment: [String: String], timeLimit: TimeInterval) async -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.standardError
        do {
            try process.run()
        } catch {
            return "it could not be started (\(error.localizedDescription))"
        }
        // Written on a thread of its own: a command that never reads a long text must not hold
        // the run past the time limit. A command that ends without reading it makes the write
        // fail: with SIGPIPE ignored (as the command line does), an error, not the process's end.
        signal(SIGPIPE, SIG_IGN)
        let writer = stdin.fileHandleForWriting
        Thread {
            try? writer.write(contentsOf: input)
            try? writer.close()
        }.start()
        let deadline = Date().addingTimeInterval(timeLimit)
        while process.isRunning && Date() < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            // The shell's process group: the shell and what it started.
            let group = getpgid(process.processIdentifier)
            if group == process.processIdentifier { kill(-group, SIGKILL) } else { process.terminate() }
            return "it did not finish within \(FetchError.format(timeLimit)) s"
        }
        return process.terminationStatus == 0 ? nil : "it exited with \(process.terminationStatus)"
    }
}

/// Sends one notice to the targets of the policy. A failure fails no report: it comes back as a
/// sentence for a warning, with its target, and the caller keeps the notice for that target.
package struct NoticeDelivery: Sendable {
    package var policy: NoticePolicy
    package var http: any HTTPClient
    package var commands: any CommandRunning

    package init(policy: NoticePolicy, http: any HTTPClient = CurlHTTPClient(), commands: any CommandRunning = ShellCommandRunner()) {
        self.policy = policy
        self.http = http
        self.commands = commands
    }

    /// A target that did not take a notice, and why: `Notice: https://… answered HTTP 500 …`.
    package struct Failure: Sendable, Equatable {
        package var target: NoticeTarget
        package var reason: String
    }

    /// Sends the notice to each of `targets` (every target of the policy when nil), in turn; each
    /// that did not take it comes back, in the same order.
    package func deliver(_ notice: AlertNotice, to targets: [NoticeTarget]? = nil) async -> [Failure] {
        var failures: [Failure] = []
        for target in targets ?? policy.targets {
            if let reason = await send(notice, to: target) {
                failures.append(Failure(target: target, reason: reason.hasSuffix(".") ? String(reason.dropLast()) : reason))
            }
        }
        return failures
    }

    /// nil when the target took the notice; else why not.
    private func send(_ notice: AlertNotice, to target: NoticeTarget) async -> String? {
        switch target {
        case .url(let url):
            do {
                let response = try await http.post(url, json: notice.json, timeout: NoticePolicy.timeLimit, source: .notice)
                guard (200..<300).contains(response.status) else {
                    return FetchError.httpStatus(source: .notice, location: url.absoluteString, status: response.status).errorDescription ?? ""
                }
                return nil
            } catch {
                return (error as? any LocalizedError)?.errorDescription ?? "\(error)"
            }
        case .command(let command):
            let failure = await commands.run(
                command, input: Data((notice.text + "\n").utf8), environment: ["CRYPTOREPORT_ALERTS": String(decoding: notice.json, as: UTF8.self)],
                timeLimit: NoticePolicy.timeLimit)
            return failure.map { "Notice: the command \(command) failed: \($0)." }
        }
    }
}
