// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

extension PostgresLocalCatalog {
    public func privacy(of selection: PhotoSelection) throws -> [(id: String, privacy: PhotoPrivacy)] {
        let columns = "SELECT id, visibility, location_audience FROM local_photos"
        let rows = try pool.withConnection { connection in
            switch selection {
            case .all: try connection.execute("\(columns) ORDER BY id")
            case let .place(id): try connection.execute("\(columns) WHERE place = $1 ORDER BY id", [.text(id)])
            case let .ids(ids):
                // Imported photos' ids are "local-" and hex digits: a space never falls inside one.
                try connection.execute(
                    "\(columns) WHERE id = ANY (string_to_array($1, ' ')) ORDER BY id",
                    [.text(ids.joined(separator: " "))])
            }
        }
        let found = (0..<rows.count).map { row in
            let visibility = Audience(rawValue: rows.text(row, 1) ?? "") ?? .private
            let location = Audience(rawValue: rows.text(row, 2) ?? "") ?? .private
            return (
                id: rows.text(row, 0) ?? "",
                privacy: PhotoPrivacy(visibility: visibility, location: location)
                    ?? PhotoPrivacy(visibility: visibility)
            )
        }
        guard case let .ids(ids) = selection else { return found }
        // In the order asked for, as SQLite's are.
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    public func setPrivacy(_ privacy: PhotoPrivacy, of ids: [String]) throws {
        try pool.transaction { connection in
            try connection.execute(
                """
                UPDATE local_photos SET visibility = $2, location_audience = $3
                WHERE id = ANY (string_to_array($1, ' '))
                """,
                [
                    .text(ids.joined(separator: " ")), .text(privacy.visibility.rawValue),
                    .text(privacy.location.rawValue),
                ])
            try Self.keepUnlocated(on: connection)
            // Pages, the index and servers made from the photos are made again.
            try connection.execute("UPDATE local_version SET version = version + 1")
        }
    }
}
