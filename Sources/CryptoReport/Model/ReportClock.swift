public import Foundation

/// The time of day, behind a protocol so that tests and golden files get a fixed one.
public protocol ReportClock: Sendable {
    func now() -> Date
}

public struct SystemClock: ReportClock {
    public init() {}
    public func now() -> Date { Date() }
}

public struct FixedClock: ReportClock {
    public var date: Date
    public init(_ date: Date) { self.date = date }
    public func now() -> Date { date }
}
