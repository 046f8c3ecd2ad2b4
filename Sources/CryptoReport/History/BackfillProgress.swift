/// Backfill progress on standard error.
package enum BackfillProgress {
    /// A bar redrawn in place on a terminal; one plain line per market otherwise (cron, pipes).
    package static func line(done: Int, total: Int, symbol: String, terminal: Bool) -> String {
        guard terminal else { return "backfill: \(done)/\(total) \(symbol)\n" }
        let width = 30
        let filled = total > 0 ? min(width, done * width / total) : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let name = symbol.count < 14 ? symbol + String(repeating: " ", count: 14 - symbol.count) : symbol
        return "\r\(bar) \(done)/\(total) \(name)" + (done == total ? "\n" : "")
    }
}
