public import Foundation

/// Where notices of fired alerts go (`--notify`, `--notify-command`), and how often.
public struct NoticePolicy: Sendable, Equatable {
    /// Webhooks, each sent an HTTP POST of the notice's JSON.
    public var urls: [URL] = []
    /// Run through `/bin/sh -c` with the text on standard input and the JSON in `CRYPTOREPORT_ALERTS`.
    public var command: String? = nil
    /// Where the report folder is published: each line of a notice links to the page.
    public var linkBase: String? = nil
    /// A notice on every run an alert fires, not only when it starts to.
    public var everyRun = false

    public init() {}

    public var isOn: Bool { !urls.isEmpty || command != nil }

    /// How long one delivery may take.
    public static let timeLimit: TimeInterval = 10

    /// Each target, the webhooks in their order, then the command.
    package var targets: [NoticeTarget] {
        urls.map(NoticeTarget.url) + (command.map { [NoticeTarget.command($0)] } ?? [])
    }

    /// How long an undelivered notice is kept: an older one is dropped unsent.
    package static let keptFor: TimeInterval = 7 * 86400
    /// How many undelivered notices are kept for one target: past that, the oldest are dropped.
    package static let keptPerTarget = 50
}
