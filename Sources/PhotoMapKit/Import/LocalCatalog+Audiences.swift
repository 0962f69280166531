// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

extension LocalCatalog {
    public func privacy(of selection: PhotoSelection) throws -> [(id: String, privacy: PhotoPrivacy)] {
        let columns = "SELECT id, visibility, location_audience FROM photos"
        let rows: SQLiteStatement
        switch selection {
        case .all: rows = try database.prepare("\(columns) ORDER BY id")
        case let .place(id): rows = try database.prepare("\(columns) WHERE place = ? ORDER BY id", [.text(id)])
        case let .ids(ids):
            var found: [(id: String, privacy: PhotoPrivacy)] = []
            for id in ids {
                if let privacy = try storedPrivacy(of: id) { found.append((id, privacy)) }
            }
            return found
        }
        var found: [(id: String, privacy: PhotoPrivacy)] = []
        while try rows.step() { found.append((rows.text(0), Self.privacy(rows, from: 1))) }
        return found
    }

    public func setPrivacy(_ privacy: PhotoPrivacy, of ids: [String]) throws {
        try database.transaction {
            for id in ids {
                try database.prepare(
                    "UPDATE photos SET visibility = ?, location_audience = ? WHERE id = ?",
                    [.text(privacy.visibility.rawValue), .text(privacy.location.rawValue), .text(id)]
                ).step()
            }
            try keep(.unlocated)
            // Pages, the index and servers made from the photos are made again.
            try database.prepare(
                "INSERT INTO meta VALUES ('version', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1"
            ).step()
        }
    }

    /// The audiences the photo `id` has, or nil when there is no such photo.
    func storedPrivacy(of id: String) throws -> PhotoPrivacy? {
        guard knowsAudiences else { return nil }
        let row = try database.prepare(
            "SELECT visibility, location_audience FROM photos WHERE id = ?", [.text(id)])
        return try row.step() ? Self.privacy(row, from: 0) : nil
    }

    /// A row's two audiences from `column` on; a word this photomap does not know reads as the narrowest.
    private static func privacy(_ row: SQLiteStatement, from column: Int32) -> PhotoPrivacy {
        let visibility = Audience(rawValue: row.text(column)) ?? .private
        let location = Audience(rawValue: row.text(column + 1)) ?? .private
        return PhotoPrivacy(visibility: visibility, location: location) ?? PhotoPrivacy(visibility: visibility)
    }
}
