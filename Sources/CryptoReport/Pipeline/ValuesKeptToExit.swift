import Foundation

/// What runs left to the process's end (`ReportPipeline.leavesValuesToExit`): held here, never
/// freed, so that a command exiting after its run does not first free every market's values one
/// by one. The system takes a process's memory back whole, as compilers count on when they skip
/// freeing before they exit.
enum ValuesKeptToExit {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var kept: [Any] = []

    static func keep(_ values: Any) {
        lock.withLock { kept.append(values) }
    }

    /// How many runs' values are held (for tests).
    static var count: Int {
        lock.withLock { kept.count }
    }
}
