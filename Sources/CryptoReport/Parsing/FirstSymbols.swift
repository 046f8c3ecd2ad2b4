/// Which tickers are the first of their symbol, asked in the body's order, the symbols hashed
/// beforehand on every core.
///
/// Written by hand because a `Set<String>` hashes each symbol as it is inserted, on the one
/// thread that must ask in order: at 100,000 tickers that was most of that thread's part of
/// reading them. Here the keys are hashed with the rest of judging a row (`String.hashValue`,
/// seeded per process as `Set`'s own), and the ordered pass only probes an open-addressing table;
/// two keys of one hash are compared themselves, so a collision never merges two symbols.
struct FirstSymbols {
    /// Per slot: 0 empty, else the hash's high 32 bits << 32 | (the ticker's place + 1).
    private var slots: [UInt64]
    private let mask: Int

    /// Room for `capacity` keys, the table at most half full.
    init(capacity: Int) {
        var size = 16
        while size < 2 * capacity { size <<= 1 }
        slots = Array(repeating: 0, count: size)
        mask = size - 1
    }

    /// Whether no key inserted before equals this one (`same(place)`: whether the key of the
    /// ticker inserted at `place` does); if none does, it is remembered at `place`, which must be
    /// below 2^32 - 1.
    mutating func insert(_ place: Int, hash: Int, same: (Int) -> Bool) -> Bool {
        let tag = UInt64(UInt(bitPattern: hash) >> 32) << 32
        var slot = hash & mask
        while true {
            let occupant = slots[slot]
            if occupant == 0 {
                slots[slot] = tag | UInt64(place + 1)
                return true
            }
            if occupant & 0xFFFF_FFFF_0000_0000 == tag, same(Int(occupant & 0xFFFF_FFFF) - 1) { return false }
            slot = (slot + 1) & mask
        }
    }
}
