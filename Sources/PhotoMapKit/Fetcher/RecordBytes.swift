// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Records' JSON bytes one after another in one buffer, with where each ends: a place's 100,000 recorded
/// photos are two allocations, freed whole, instead of a `Data` each (~50 MB of small blocks that, once
/// freed, left holes under the listing's own records that the process kept to its end).
struct RecordBytes: RandomAccessCollection, Sendable {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []

    var startIndex: Int { 0 }
    var endIndex: Int { ends.count }

    /// Record `index`'s bytes.
    subscript(index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }

    /// Adds `records` after those held.
    mutating func append(contentsOf records: [Data]) {
        for record in records {
            bytes += record
            ends.append(bytes.count)
        }
    }
}
