// SPDX-License-Identifier: Apache-2.0
/// Where keys stand in arrays their owner keeps, found by each key's hash: a table of 32-bit slots
/// (open addressing, at most half full) in place of a `Dictionary`, whose slots hold each key and value
/// themselves and double past three quarters full: a table of positions costs 4 bytes a slot where a
/// dictionary's slot costs a whole entry.
package struct PositionTable {
    /// Each slot: a position plus one, or 0 for none.
    private var slots: [Int32] = []
    private var count = 0

    /// An empty table.
    package init() {}

    /// The position whose key `matches`, among the positions held under `hash`.
    package func position(hash: Int, matches: (Int) -> Bool) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 {
            let position = Int(slots[slot]) - 1
            if matches(position) { return position }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Holds `position` (of a key not held yet) under `hash`; `hashOf` gives the hash of each position
    /// held when the table grows.
    package mutating func insert(_ position: Int, hash: Int, hashOf: (Int) -> Int) {
        if (count + 1) * 2 > slots.count {
            let held = slots
            slots = [Int32](repeating: 0, count: max(16, slots.count * 2))
            for value in held where value != 0 { place(Int(value) - 1, hash: hashOf(Int(value) - 1)) }
        }
        place(position, hash: hash)
        count += 1
    }

    private mutating func place(_ position: Int, hash: Int) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(position + 1)
    }

    /// The hash of a key's bytes (a path's UTF-8), the same for a `String` and the bytes it was kept as.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return hasher.finalize()
    }
}
