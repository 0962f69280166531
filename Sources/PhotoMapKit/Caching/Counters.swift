// SPDX-License-Identifier: Apache-2.0
/// Hits, misses, downloads and failures: this process's are added to the folder's in the journal.
struct Counters: Sendable, Equatable {
    var hits = 0
    var misses = 0
    var downloads = 0
    var failures = 0

    func adding(_ other: Counters) -> Counters {
        Counters(
            hits: hits + other.hits, misses: misses + other.misses, downloads: downloads + other.downloads,
            failures: failures + other.failures)
    }
}
