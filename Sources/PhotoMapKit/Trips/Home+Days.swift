// SPDX-License-Identifier: Apache-2.0
import Foundation

extension Home {
    /// `mostDays(_:)` from the rows of the days (`TripDay`), as the viewer sees them, without reading a
    /// photo: nil when no photo is in a town, or when the town found has no centre (then its photos'
    /// mean is home, and only the photos give it).
    public static func mostDays(_ days: [TripDay]) -> Home? {
        struct Tally {
            var days: Set<Int> = []
            var photos = 0
            var last = Int64.min
            var names: PlaceNames
        }
        // By place, then by name in the order of each place's last photo, as `mostDays(_:)` tallies.
        var places: [String: Tally] = [:]
        for row in days {
            guard row.located > 0, let names = row.names, names.town != nil else { continue }
            var place = places[row.place] ?? Tally(names: names)
            place.days.insert(row.day)
            place.photos += row.located
            place.last = max(place.last, row.lastLocated)
            places[row.place] = place
        }
        var towns: [String: (days: Set<Int>, photos: Int, names: PlaceNames)] = [:]
        for place in places.values.sorted(by: { $0.last < $1.last }) {
            let name = place.names.placeName ?? ""
            var town = towns[name] ?? ([], 0, place.names)
            town.days.formUnion(place.days)
            town.photos += place.photos
            town.names = place.names
            towns[name] = town
        }
        let best = towns.max { a, b in
            (a.value.days.count, a.value.photos, b.key) < (b.value.days.count, b.value.photos, a.key)
        }
        guard let (name, town) = best, let centre = town.names.centre else { return nil }
        return Home(coordinate: centre, name: name, country: town.names.country)
    }
}

extension PlaceNames {
    /// As `TripPhoto.placeName` names a photo with these names.
    var placeName: String? {
        let parts = [town, division == town ? nil : division, country].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
