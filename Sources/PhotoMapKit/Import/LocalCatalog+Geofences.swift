// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

extension LocalCatalog {
    public func fences() throws -> [Geofence] {
        guard knowsFences else { return [] }
        let rows = try database.prepare("SELECT name, latitude, longitude, radius FROM fences ORDER BY name")
        var fences: [Geofence] = []
        while try rows.step() {
            guard let centre = Coordinate(latitude: rows.real(1), longitude: rows.real(2)) else { continue }
            fences.append(Geofence(name: rows.text(0), centre: centre, radius: rows.real(3) ?? 0))
        }
        return fences
    }

    public func add(_ fence: Geofence) throws {
        try database.transaction {
            let existing = try database.prepare("SELECT 1 FROM fences WHERE name = ?", [.text(fence.name)])
            guard try !existing.step() else { throw GeofenceError.duplicate(name: fence.name) }
            try database.prepare(
                "INSERT INTO fences VALUES (?, ?, ?, ?)",
                [
                    .text(fence.name), .real(fence.centre.latitude), .real(fence.centre.longitude),
                    .real(fence.radius),
                ]
            ).step()
            try fencesChanged(near: fence)
        }
    }

    public func removeFence(named name: String) throws {
        try database.transaction {
            let removed = try database.prepare(
                "DELETE FROM fences WHERE name = ? RETURNING latitude, longitude, radius", [.text(name)])
            guard try removed.step() else { throw GeofenceError.unknown(name: name) }
            let fence = Coordinate(latitude: removed.real(0), longitude: removed.real(1)).map {
                Geofence(name: name, centre: $0, radius: removed.real(2) ?? 0)
            }
            while try removed.step() {}
            try fencesChanged(near: fence)
        }
    }

    public func locatedCoordinates() throws -> [(id: String, coordinate: Coordinate)] {
        let rows = try database.prepare("SELECT id, latitude, longitude FROM photos WHERE latitude IS NOT NULL")
        var located: [(id: String, coordinate: Coordinate)] = []
        while try rows.step() {
            if let coordinate = Coordinate(latitude: rows.real(1), longitude: rows.real(2)) {
                located.append((rows.text(0), coordinate))
            }
        }
        return located
    }

    /// Marks which of the photos `ids` the fences hold as hidden (every photo when nil), within the
    /// caller's transaction; the others keep theirs. A change refreshes the photos it wrote: a catalog's
    /// other photos cost nothing.
    func refreshHidden(of ids: [String]?) throws {
        let fences = try fences()
        let rows = try database.prepare("SELECT id, latitude, longitude, hidden FROM photos WHERE id = ?")
        // Only the rows whose flag changes are written (each write moves the map's aggregates), after the reads.
        var flipped: [(id: String, hidden: Bool)] = []
        func read(_ rows: SQLiteStatement) throws {
            while try rows.step() {
                let hidden = fences.hide(Coordinate(latitude: rows.real(1), longitude: rows.real(2)))
                if (rows.integer(3) == 1) != hidden { flipped.append((rows.text(0), hidden)) }
            }
        }
        if let ids {
            for id in ids {
                try rows.bind([.text(id)])
                try read(rows)
            }
        } else {
            try read(try database.prepare("SELECT id, latitude, longitude, hidden FROM photos"))
        }
        let update = try database.prepare("UPDATE photos SET hidden = ? WHERE id = ?")
        for (id, hidden) in flipped {
            try update.bind([.integer(hidden ? 1 : 0), .text(id)])
            try update.step()
        }
        // Photos shown without a location (a fence's, or an audience's) are listed in it.
        try keep(.unlocated)
    }

    /// The photos that may lie within `fence`: those of its band of latitudes, the first test of
    /// `Geofence.contains` (a photo outside it is in no fence it did not lie in before).
    func photos(near fence: Geofence) throws -> [String] {
        let band = fence.radius / 111_195 + 1e-9
        let rows = try database.prepare(
            "SELECT id FROM photos WHERE latitude BETWEEN ? AND ?",
            [.real(fence.centre.latitude - band), .real(fence.centre.latitude + band)])
        var ids: [String] = []
        while try rows.step() { ids.append(rows.text(0)) }
        return ids
    }

    /// After `fence` came or went: the photos it holds hidden or shown, and the version moved on so that
    /// the index and pages made from the photos are made again.
    private func fencesChanged(near fence: Geofence?) throws {
        try refreshHidden(of: try fence.map(photos(near:)))
        try database.prepare(
            "INSERT INTO meta VALUES ('version', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1"
        ).step()
    }
}
