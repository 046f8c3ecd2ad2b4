/// Process exit codes, sysexits-style, documented in docs/errors.md.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// Reports written, and an alert fired with `--fail-on-alert`.
    case alertFired = 10
    /// A bad flag, an unknown format or currency.
    case usage = 64
    /// A source answered, but with something that is not usable data.
    case dataError = 65
    /// A local input file does not exist or cannot be read.
    case noInput = 66
    /// A source could not be reached or answered with an HTTP error.
    case unavailable = 69
    /// A bug: something the tool should never do.
    case internalError = 70
    /// The report could not be written.
    case cannotCreateOutput = 73
    /// The reports were written, but the history could not be updated (`EX_IOERR`).
    case ioError = 74
    /// Another run holds the output folder; try again later.
    case temporaryFailure = 75
}

/// An error that knows which exit status it ends the run with.
public protocol ExitStatusProviding: Error {
    var exitStatus: ExitStatus { get }
}
