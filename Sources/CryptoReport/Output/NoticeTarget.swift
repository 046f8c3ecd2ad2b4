package import Foundation

/// One place a notice goes: a webhook of `--notify`, or the `--notify-command`. The history keeps
/// an undelivered notice per target, by `identity`, so that a later run sends it only to the
/// targets that missed it.
package enum NoticeTarget: Sendable, Hashable {
    case url(URL)
    case command(String)

    /// What the history keeps the target by: its kind and the URL or the command, so that a
    /// command spelt like a URL is not taken for the webhook.
    package var identity: String {
        switch self {
        case .url(let url): "url \(url.absoluteString)"
        case .command(let command): "command \(command)"
        }
    }

    /// The target of an `identity`; nil for text no version wrote.
    package init?(identity: String) {
        if identity.hasPrefix("url "), let url = URL(string: String(identity.dropFirst(4))) {
            self = .url(url)
        } else if identity.hasPrefix("command ") {
            self = .command(String(identity.dropFirst(8)))
        } else {
            return nil
        }
    }

    /// As a warning names it: the URL, or `the command CMD`.
    package var name: String {
        switch self {
        case .url(let url): url.absoluteString
        case .command(let command): "the command \(command)"
        }
    }
}
