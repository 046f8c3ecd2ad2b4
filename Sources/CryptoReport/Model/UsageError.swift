public import Foundation

/// A request that cannot be carried out as asked.
public enum UsageError: LocalizedError, ExitStatusProviding, Equatable {
    case invalid(option: String, value: String, expected: String)
    case stdoutNeedsOneFormat(count: Int)
    case templateUnreadable(path: String, reason: String)
    case templateInvalid(name: String, reason: String)
    /// A template whose rendering would not end in time, or would make too large a file.
    case templateTooCostly(name: String, reason: String)
    /// `--holding` names an asset no market of the report prices.
    case holdingUnpriced(asset: String)
    /// A holding's cost is in a currency the ECB rates of the day lack.
    case holdingCostCurrency(asset: String, currency: String)

    public var errorDescription: String? {
        switch self {
        case let .invalid(option, value, expected):
            "\(option): \"\(SourceText.escaped(value))\" is not valid; expected \(expected)."
        case let .holdingUnpriced(asset):
            "holdings: no market of the report prices \(asset.uppercased()), so the holding cannot be valued; remove it or check its name."
        case let .holdingCostCurrency(asset, currency):
            "holdings: the cost of \(asset.uppercased()) is in \(currency), which the ECB rates of the day do not list."
        case let .stdoutNeedsOneFormat(count):
            "--output -: standard output takes exactly one format, but \(count) were asked for."
        case let .templateUnreadable(path, reason):
            "Templates: cannot read \(path): \(reason)."
        case let .templateInvalid(name, reason):
            "Templates: \(name) is not a valid Mustache template: \(reason)."
        case let .templateTooCostly(name, reason):
            "Templates: \(name) \(reason); nothing was written. Sections over the markets nested inside each other multiply the work."
        }
    }

    /// A template folder or file that is not there, or cannot be read, is missing input (66), as
    /// a `--config` file is; one that is there but wrong is a usage error.
    public var exitStatus: ExitStatus {
        if case .templateUnreadable = self { return .noInput }
        return .usage
    }
}
