// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

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
    /// The id of its page of photos (`pageID(_:)`): a country's or a region's; nil for a town, whose
    /// photos are its place's page.
    public var pageID: String?
    /// The ids of its photos, the newest first (ties by id, as a place page lists them); a country's and
    /// a region's only.
    public var photoIDs: [String]

    /// The tree of the located photos' places, the most photographed country first. A photo in a
    /// country but no division counts for the country alone; one in a division but no town for the
    /// country and the division; photos at sea count nowhere.
    public static func tree(_ photos: [TripPhoto]) -> [VisitedPlace] {
        // Sorted once: each group keeps the order, so each page's photos are in it.
        let located = photos.filter { $0.country != nil }.sorted { ($0.taken, $1.id) > ($1.taken, $0.id) }
        guard let cover = latest(located) else { return [] }
        return place(path: [], located, cover: cover, levels: [\.country, \.division, \.town]).children
    }

    /// The place named `path` (its country's name, its region's, its town's; none for the root) of
    /// `photos` (one or more), its children grouped by the first of `levels`.
    private static func place(
        path: [String], _ photos: [TripPhoto], cover: TripPhoto, levels: [KeyPath<TripPhoto, String?>]
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
                latest(photos).map { place(path: path + [name], photos, cover: $0, levels: Array(levels.dropFirst())) }
            }
            .sorted { ($1.photos, $0.name) < ($0.photos, $1.name) }
        }
        let hasPage = (1...2).contains(path.count)
        return VisitedPlace(
            name: path.last ?? "", photos: photos.count, days: dates.count, first: dates.min() ?? "",
            last: dates.max() ?? "", children: children, cover: cover, pageID: hasPage ? pageID(path) : nil,
            photoIDs: hasPage ? photos.map(\.id) : [])
    }

    /// The last taken of `photos`, the greater id of two taken at once; nil for none.
    private static func latest(_ photos: [TripPhoto]) -> TripPhoto? {
        photos.max { ($0.taken, $0.id) < ($1.taken, $1.id) }
    }
}

// The pages of a country's and a region's photos: `/visited/ID`, `visited/ID.html`.
extension VisitedPlace {
    /// The id of the page of the place named `names` (a country's, or a country's and a region's): the
    /// names in lowercase ASCII letters and digits, then 10 hex digits of their digest (each name
    /// length-prefixed), so that names the letters alone cannot tell apart (another script, accents) have
    /// pages of their own. The same names always give the same id; it holds only `a`–`z`, `0`–`9` and `-`.
    public static func pageID(_ names: [String]) -> String {
        var digested: [UInt8] = []
        for name in names { digested += Array("\(name.utf8.count):\(name)".utf8) }
        let words = names.map { name in
            var word = ""
            for scalar in name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).unicodeScalars {
                if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                    word.unicodeScalars.append(scalar)
                } else if !word.isEmpty, word.last != "-" {
                    word += "-"
                }
            }
            word = String(word.prefix(pageIDWordLength))
            while word.last == "-" { word.removeLast() }
            return word
        }
        return (words.filter { !$0.isEmpty } + [String(SHA256.hex(digested).prefix(10))]).joined(separator: "-")
    }

    /// Most characters of each name an id keeps: ids stay short enough to be a file's name as they are.
    static let pageIDWordLength = 24

    /// Whether `text` could be a page's id: a bound on what is looked up, before anything is read.
    public static func isPageID(_ text: String) -> Bool {
        (10...(2 * pageIDWordLength + 12)).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            }
    }

    /// The country or region of `visited` whose page is `id`, and the country a region is in; nil when none is.
    public static func page(_ id: String, in visited: [VisitedPlace]) -> (place: VisitedPlace, country: String?)? {
        for country in visited {
            if country.pageID == id { return (country, nil) }
            if let region = country.children.first(where: { $0.pageID == id }) { return (region, country.name) }
        }
        return nil
    }

    /// "2024-07-10 – 2024-07-11", or the one day.
    public var dates: String { first == last ? first : "\(first) – \(last)" }
}
