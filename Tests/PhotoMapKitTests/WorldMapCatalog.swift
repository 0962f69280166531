// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport

@testable import PhotoMapKit

/// A small catalog for the map of everything's tests: photos in a few crowded spots, scattered over
/// the world and beyond ±85.0511°, on both meridian edges, some without a date, from a fixed seed.
struct WorldMapCatalog {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func unit() -> Double {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Double((state &* 0x2545_F491_4F6C_DD1D) >> 11) / Double(1 << 53)
    }

    mutating func below(_ limit: Int) -> Int { min(limit - 1, Int(unit() * Double(limit))) }

    /// `count` photos: (id, coordinate, date taken).
    mutating func photos(_ count: Int) -> [(id: String, coordinate: Coordinate, taken: String?)] {
        let spots = [(46.05, 14.5), (48.85, 2.35), (-33.9, 151.2), (35.68, 139.7)]
        return (0..<count).compactMap { number in
            let latitude: Double, longitude: Double
            switch number % 10 {
            case 0...5:
                let spot = spots[number % spots.count]
                latitude = spot.0 + (unit() - 0.5) * 0.2
                longitude = spot.1 + (unit() - 0.5) * 0.3
            case 6: (latitude, longitude) = (86 + unit() * 4, (unit() - 0.5) * 360)
            case 7: (latitude, longitude) = (-86 - unit() * 4, number % 20 == 7 ? 180 : -180)
            default: (latitude, longitude) = ((unit() - 0.5) * 170, (unit() - 0.5) * 360)
            }
            let taken = number % 7 == 3 ? nil : String(format: "%04d-%02d-14 12:00:00", 2001 + below(20), 1 + below(12))
            return Coordinate(latitude: latitude, longitude: longitude).map {
                (String(format: "local-%016x", number * 7919), $0, taken)
            }
        }
    }

    /// The changes an import of `photos` makes (one file each).
    static func changes(_ photos: [(id: String, coordinate: Coordinate, taken: String?)]) -> LocalCatalogChanges {
        var changes = LocalCatalogChanges()
        // The map is the public view: photos everyone may see, where they were taken.
        changes.privacy = PhotoPrivacy(visibility: .public)
        for (index, photo) in photos.enumerated() {
            let record = Photo(id: photo.id, title: photo.id, dateTaken: photo.taken, coordinate: photo.coordinate)
            changes.photos.append((record, LocalPlace.unlocated, nil))
            var state = LocalFileState(size: 1, modified: 1, inode: Int64(index))
            state.photo = photo.id
            changes.files.append((Array(photo.id.utf8), state))
        }
        return changes
    }

    /// The tile at `zoom` by the slippy-map formulas as written (not `MapTile.key`'s integer route).
    static func tile(of coordinate: Coordinate, zoom: Int) -> MapTile? {
        let tiles = Double(1 << zoom)
        let radians = coordinate.latitude * Double.pi / 180
        let x = Int(((coordinate.longitude + 180) / 360 * tiles).rounded(.down))
        let y = Int(((1 - log(tan(radians) + 1 / cos(radians)) / Double.pi) / 2 * tiles).rounded(.down))
        let last = (1 << zoom) - 1
        return MapTile(zoom: zoom, x: min(max(x, 0), last), y: min(max(y, 0), last))
    }
}
