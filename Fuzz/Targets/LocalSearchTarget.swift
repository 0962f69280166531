// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// The local search's query builder: `LocalIndex.search` on an index of the small catalog. Input
/// lines: the query, then optionally `lat,lon`, a radius in km, a limit and a comma-separated list of
/// photo ids (Flickr's results, ranked by the index). Property: the query never reaches SQLite as
/// syntax — no search fails on a healthy index; at most `limit` hits, each within the radius.
enum LocalSearchTarget {
    /// One connection for the run: a fuzz run is one thread.
    nonisolated(unsafe) static let index: LocalIndex = {
        do {
            return try LocalIndex(file: try FuzzSandbox.shared.index().file)
        } catch {
            propertyFailed("the sandbox's index cannot be made: \(error)")
        }
    }()

    static let target = FuzzTarget(
        name: "local-search",
        summary: "the local search's FTS5 query builder (LocalIndex.search on a small index): no SQLite error, ever",
        options: ["-max_len=4096"],
        prepare: { _ = index }
    ) { bytes in
        var lines = FuzzLines(bytes)
        let query = lines.next() ?? ""
        let near = lines.next().flatMap(Geocoder.coordinate(in:))
        let radius = lines.next().flatMap { Double($0) } ?? 5
        let limit = min(max(lines.next().flatMap { Int($0) } ?? 20, 0), 500)
        let photoIDs = lines.next().map { $0.split(separator: ",").map(String.init) }
        let hits: [SearchHit]
        do {
            hits = try index.search(query, near: near, radiusKilometres: radius, limit: limit, photoIDs: photoIDs)
        } catch {
            propertyFailed(
                "search \(query.debugDescription) near \(String(describing: near)) within \(radius) km failed: \(error)"
            )
        }
        require(hits.count <= limit, "\(hits.count) hits for a limit of \(limit)")
        if near != nil {
            require(
                hits.allSatisfy { $0.distanceKilometres <= radius },
                "a hit beyond \(radius) km for \(query.debugDescription)")
        }
        return true
    }
}
