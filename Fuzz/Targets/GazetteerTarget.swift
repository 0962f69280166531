// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel

/// The gazetteer's query parser: `Geocoder.find` on the small gazetteer. Input lines: the query,
/// then optionally `lat,lon` to favour and a limit. Property: never a crash or an error; at most `limit` results,
/// best first, each with a finite score and a coordinate on Earth; a "lat,lon" query gives that point.
enum GazetteerTarget {
    static let geocoder: Geocoder = {
        do {
            return Geocoder(gazetteer: try FuzzSandbox.shared.gazetteer())
        } catch {
            propertyFailed("the sandbox's gazetteer does not load: \(error)")
        }
    }()

    static let target = FuzzTarget(
        name: "gazetteer",
        summary: "the gazetteer query parser and ranking (Geocoder.find on a small gazetteer)",
        options: ["-max_len=4096"],
        prepare: { _ = geocoder }
    ) { bytes in
        var lines = FuzzLines(bytes)
        let query = lines.next() ?? ""
        let near = lines.next().flatMap(Geocoder.coordinate(in:))
        let limit = min(lines.next().flatMap { Int($0) } ?? 10, 50)
        // It throws only for its index (SQLite): a query that breaks it is a finding.
        let results: [Geocoder.Result]
        do {
            results = try geocoder.find(query, near: near, limit: limit)
        } catch {
            propertyFailed("find threw \(error) for \(query.debugDescription)")
        }
        require(
            results.count <= max(limit, 0) || Geocoder.coordinate(in: query) != nil,
            "\(results.count) results for a limit of \(limit)")
        require(
            zip(results, results.dropFirst()).allSatisfy { $0.score >= $1.score },
            "results out of order for \(query.debugDescription)")
        for result in results {
            require(result.score.isFinite, "score \(result.score) for \(query.debugDescription)")
            let point = result.entry.coordinate
            require(
                Coordinate(latitude: point.latitude, longitude: point.longitude) != nil
                    || (point.latitude == 0 && point.longitude == 0),
                "a location off the Earth: \(point)")
        }
        if let point = Geocoder.coordinate(in: query) {
            require(
                results.first?.entry.coordinate == point,
                "\(query.debugDescription) found \(results.first.map { "\($0.entry.coordinate)" } ?? "nothing")")
        }
        return true
    }
}
