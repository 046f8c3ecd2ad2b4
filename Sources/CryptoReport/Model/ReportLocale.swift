import Foundation

/// A locale people-facing numbers are shown in, known to this system's ICU (`sv_SE`, `en-US`).
public struct ReportLocale: Sendable, Hashable, Codable, CustomStringConvertible {
    public let identifier: String

    public init?(_ text: String) {
        let identifier = text.replacingOccurrences(of: "-", with: "_")
        guard Locale.availableIdentifiers.contains(identifier) else { return nil }
        self.identifier = identifier
    }

    public var description: String { identifier }
}
