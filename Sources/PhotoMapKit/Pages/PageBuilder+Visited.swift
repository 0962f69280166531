// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

// The places you have been (`VisitedPlace`): a map of the visited countries and regions shaded by their
// photos (photomap-visited.js draws it), its legend, and each country, its regions and their towns with
// their photos, days, first and last visit and cover. Served at /visited, written by `export`
// (visited.html). Each country and region opens a page of its photos (`/visited/ID`, `visited/ID.html`):
// an ordinary list page of them, its subtitle `visitedDetail`'s.
extension PageBuilder where Links: PageLinks {
    /// The page at `path` of `visited` (the viewer's places), outlined by `outlines` (no map without them),
    /// each place's cover shown from `shown` (the photos the viewer may see), a town linking its page when
    /// `hasPage` says there is one.
    public func visitedPage(
        _ visited: [VisitedPlace], outlines: VisitedOutlines?, shown: [String: AnnotatedPhoto], at path: String,
        back: (path: String, label: String)?, hasPage: (String) -> Bool = { _ in true }
    ) throws -> String {
        var plain = self
        plain.tracks = nil
        let data = plain.mapData([], for: path, labels: PlaceLabels.perListPage)
        let areas = (outlines?.areas(visited) ?? []).compactMap { area -> VisitedMapArea? in
            guard !area.polygons.isEmpty, let id = area.place.pageID else { return nil }
            let name = [area.place.name, area.country].compactMap { $0 }.joined(separator: ", ")
            return VisitedMapArea(
                href: relative(links.visitedPage(id), from: path),
                label: "\(name): \(Quantity.words(area.place.photos, "photo", "photos"))",
                level: area.country == nil ? "country" : "region", step: Self.visitedStep(area.place.photos),
                polygons: area.polygons)
        }
        let legend = Self.visitedSteps.enumerated().map { step, label in
            "<li><span class=\"visited-swatch visited-step-\(step)\" aria-hidden=\"true\"></span>\(HTML.text(label))</li>"
        }.joined()
        let json = try HTML.scriptJSON(["areas": areas])
        let map =
            areas.isEmpty
            ? ""
            : """
            <div id="visited-map" class="visited-map" role="region" aria-label="Map of the countries and regions \
            you have been to"></div><p class="visited-legend-title" id="visited-legend-title">Photos taken there</p>\
            <ul class="visited-legend" aria-labelledby="visited-legend-title">\(legend)</ul>\
            <script type="application/json" id="photomap-visited">\(json)</script>
            """
        let list = try visitedList(visited, depth: 0, shown: shown, on: path, hasPage: hasPage)
        let after = "<section class=\"visited\" aria-label=\"Places\">\(map)\(list)</section>"
        return try PageRenderer.listPage(
            title: "Places you have been", subtitle: Quantity.words(visited.count, "country", "countries"),
            data: data, links: pageLinks(for: path, back: back), defaultView: "list", credits: credits, after: after)
    }

    /// The labels of the map's shades, the fewest photos first.
    static var visitedSteps: [String] {
        ["1–9 photos", "10–99", "100–999", "1,000–9,999", "10,000 or more"]
    }

    /// The shade of a place of `photos` photos: one a power of ten.
    static func visitedStep(_ photos: Int) -> Int {
        min(visitedSteps.count - 1, max(0, Int(log10(Double(max(photos, 1))))))
    }

    /// What a country's or region's page says of it after its photos: the country a region is in, its days
    /// and dates.
    public static func visitedDetail(of place: VisitedPlace, country: String?) -> String {
        PageSubtitle.joined([country, Quantity.words(place.days, "day", "days"), place.dates])
    }

    /// `places` as a list, each with its cover, its summary and its children's list, at `depth` 0
    /// (countries), 1 (regions) or 2 (towns); each links the page of its photos (a town its place's, when
    /// `hasPage` says there is one).
    func visitedList(
        _ places: [VisitedPlace], depth: Int, shown: [String: AnnotatedPhoto], on path: String,
        hasPage: (String) -> Bool
    ) throws -> String {
        guard !places.isEmpty else { return "" }
        let items = try places.map { place -> String in
            let summary = [
                Quantity.words(place.photos, "photo", "photos"), Self.visitedDetail(of: place, country: nil),
            ]
            .joined(separator: " · ")
            var cover = ""
            if let photo = shown[place.cover.id] {
                let properties = try feature(of: photo, on: path).properties
                let image =
                    "<img src=\"\(HTML.text(properties.thumbnail ?? ""))\" alt=\"\(HTML.text("Latest photo of \(place.name)"))\" "
                    + "width=\"40\" height=\"40\" loading=\"lazy\">"
                cover =
                    properties.link.map { "<a class=\"visited-cover\" href=\"\(HTML.text($0))\">\(image)</a> " } ?? ""
            }
            var name = "<span class=\"visited-name\">\(HTML.text(place.name))</span>"
            let page =
                place.pageID.map(links.visitedPage)
                ?? place.cover.place.flatMap {
                    depth == 2 && hasPage($0) ? links.placePage(Place(id: $0, fullName: place.name)) : nil
                }
            if let page {
                name =
                    "<a class=\"visited-name\" href=\"\(HTML.text(relative(page, from: path)))\">\(HTML.text(place.name))</a>"
            }
            let children = try visitedList(place.children, depth: depth + 1, shown: shown, on: path, hasPage: hasPage)
            return "<li>\(cover)\(name) <span class=\"visited-summary\">\(HTML.text(summary))</span>\(children)</li>"
        }
        return "<ul class=\"visited-places\">" + items.joined() + "</ul>"
    }
}

/// A country or region as the visited map draws it: its outline (a GeoJSON MultiPolygon's coordinates),
/// its shade, what a screen reader says of it and the page of its photos it opens.
struct VisitedMapArea: Encodable {
    let href, label, level: String
    let step: Int
    let polygons: [[[[Double]]]]
}
