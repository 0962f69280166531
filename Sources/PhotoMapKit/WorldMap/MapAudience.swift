// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// Who sees a point of the map of everything, as the map's tables keep it (column `audience`): the place in
/// `Audience.allCases` of the audience that sees the photo's location, plus `fenced` when a fence holds it.
/// Every located photo is on the map with its code, and each viewer's tiles sum the cells of the codes it
/// may see: the same aggregates answer the public, a friend, and the owner with the fenced photos too.
enum MapAudience {
    /// Added to the code of a photo a fence holds: only a view that shows the fenced photos sees it.
    static let fenced = 8
    /// The code seen by the fewest: for a value the database did not give.
    static let narrowest = code(.private, fenced: true)

    static func code(_ audience: Audience, fenced: Bool) -> Int {
        (Audience.allCases.firstIndex(of: audience) ?? Audience.allCases.count - 1) + (fenced ? Self.fenced : 0)
    }

    /// The codes a viewer of `audiences` sees, fenced photos too when `showsFenced`, as an SQL list (numbers).
    static func sqlList(_ audiences: Set<Audience>, showsFenced: Bool) -> String {
        let open = audiences.sorted().map { code($0, fenced: false) }
        return (open + (showsFenced ? open.map { $0 + fenced } : [])).map(String.init).joined(separator: ", ")
    }

    /// The code in SQL, from a location audience's text and whether a fence holds the photo (`hidden`: a
    /// boolean on PostgreSQL, 0 or 1 on SQLite, both true or false to `CASE WHEN`).
    static func sql(location: String, hidden: String) -> String {
        let cases = Audience.allCases.map { "WHEN '\($0.rawValue)' THEN \(code($0, fenced: false))" }
        return "(CASE \(location) \(cases.joined(separator: " ")) ELSE \(code(.private, fenced: false)) END "
            + "+ CASE WHEN \(hidden) THEN \(fenced) ELSE 0 END)"
    }
}

extension LocalCatalogStore {
    /// The map's audience codes this catalog's viewer sees, as an SQL list: what its tiles and months sum.
    var mapAudienceList: String { MapAudience.sqlList(audiences, showsFenced: showsFenced) }
}
