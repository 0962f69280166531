import Foundation

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
            try fencesChanged()
        }
    }

    public func removeFence(named name: String) throws {
        try database.transaction {
            let removed = try database.prepare("DELETE FROM fences WHERE name = ? RETURNING name", [.text(name)])
            guard try removed.step() else { throw GeofenceError.unknown(name: name) }
            while try removed.step() {}
            try fencesChanged()
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

    /// Marks the photos the fences hold as hidden (and only those), within the caller's transaction.
    func refreshHidden() throws {
        let hidden = try fences().hiddenIDs(try locatedCoordinates())
        try database.prepare("UPDATE photos SET hidden = 0 WHERE hidden <> 0").step()
        for id in hidden { try database.prepare("UPDATE photos SET hidden = 1 WHERE id = ?", [.text(id)]).step() }
        // Photos shown without a location (a fence's, or an audience's) are listed in it.
        try keep(.unlocated)
    }

    /// After a fence came or went: the photos it holds hidden or shown, and the version moved on so that
    /// the index and pages made from the photos are made again.
    private func fencesChanged() throws {
        try refreshHidden()
        try database.prepare(
            "INSERT INTO meta VALUES ('version', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1"
        ).step()
    }
}
