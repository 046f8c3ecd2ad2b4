import Foundation

/// A locale people-facing numbers are shown in, known to this system's ICU (`sv_SE`, `en-US`).
public struct ReportLocale: Sendable, Hashable, Codable, CustomStringConvertible {
    public let identifier: String

    /// `sv_SE`, `sv-SE`, and `$LANG`'s spelling, `sv_SE.UTF-8` or `de_DE@euro`: the encoding
    /// and the modifier say nothing of how numbers are written.
    public init?(_ text: String) {
        let bare = text.prefix { $0 != "." && $0 != "@" }
        let identifier = bare.replacingOccurrences(of: "-", with: "_")
        guard Locale.availableIdentifiers.contains(identifier) else { return nil }
        self.identifier = identifier
    }

    public var description: String { identifier }
}
