import Foundation

/// The places photos were taken in, as a tree: countries, their divisions (regions), their towns; each
/// with how many photos, on how many distinct days, and the first and last of those days.
public struct VisitedPlace: Sendable, Hashable {
    /// "Italy", "Tuscany", "Arezzo".
    public var name: String
    /// Its photos, those of its regions and towns included.
    public var photos: Int
    /// The distinct local dates of its photos.
    public var days: Int
    /// The first and last of those dates, "YYYY-MM-DD".
    public var first: String
    public var last: String
    /// Its regions (of a country) or towns (of a region), the most photographed first, ties by name.
    public var children: [VisitedPlace]
    /// The photo that stands for it: its last taken (the greater id of two taken at once). Its
    /// coordinate finds the place's outline, and a town's `place` is the town's page.
    public var cover: TripPhoto

    /// The tree of the located photos' places, the most photographed country first. A photo in a
    /// country but no division counts for the country alone; one in a division but no town for the
    /// country and the division; photos at sea count nowhere.
    public static func tree(_ photos: [TripPhoto]) -> [VisitedPlace] {
        let located = photos.filter { $0.country != nil }
        guard let cover = latest(located) else { return [] }
        return place(name: "", located, cover: cover, levels: [\.country, \.division, \.town]).children
    }

    /// The place `name` of `photos` (one or more), its children grouped by the first of `levels`.
    private static func place(
        name: String, _ photos: [TripPhoto], cover: TripPhoto, levels: [KeyPath<TripPhoto, String?>]
    ) -> VisitedPlace {
        var dates: Set<String> = []
        for photo in photos { dates.insert(photo.date) }
        var children: [VisitedPlace] = []
        if let level = levels.first {
            var groups: [String: [TripPhoto]] = [:]
            for photo in photos {
                if let key = photo[keyPath: level] { groups[key, default: []].append(photo) }
            }
            children = groups.compactMap { name, photos in
                latest(photos).map { place(name: name, photos, cover: $0, levels: Array(levels.dropFirst())) }
            }
            .sorted { ($1.photos, $0.name) < ($0.photos, $1.name) }
        }
        return VisitedPlace(
            name: name, photos: photos.count, days: dates.count, first: dates.min() ?? "", last: dates.max() ?? "",
            children: children, cover: cover)
    }

    /// The last taken of `photos`, the greater id of two taken at once; nil for none.
    private static func latest(_ photos: [TripPhoto]) -> TripPhoto? {
        photos.max { ($0.taken, $0.id) < ($1.taken, $1.id) }
    }
}
