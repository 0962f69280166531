import Foundation

// The places you have been (`VisitedPlace`): a map of the visited countries and regions shaded by their
// photos (photomap-visited.js draws it), its legend, and each country, its regions and their towns with
// their photos, days, first and last visit and cover. Served at /visited, written by `export`
// (visited.html).
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
        let anchors = visited.indices.flatMap { country in
            ["visited-\(country)"] + visited[country].children.indices.map { "visited-\(country)-\($0)" }
        }
        let areas = zip(outlines?.areas(visited) ?? [], anchors).compactMap { area, anchor -> VisitedMapArea? in
            guard !area.polygons.isEmpty else { return nil }
            let name = [area.place.name, area.country].compactMap { $0 }.joined(separator: ", ")
            return VisitedMapArea(
                anchor: anchor, label: "\(name): \(Quantity.words(area.place.photos, "photo", "photos"))",
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
        let list = try visitedList(visited, anchor: "visited", depth: 0, shown: shown, on: path, hasPage: hasPage)
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

    /// `places` as a list, each with its cover, its summary and its children's list, at `depth` 0
    /// (countries), 1 (regions) or 2 (towns, each linking the page of its photos). Each item's id is
    /// `anchor` and its place in the tree: the map's link to it.
    func visitedList(
        _ places: [VisitedPlace], anchor: String, depth: Int, shown: [String: AnnotatedPhoto], on path: String,
        hasPage: (String) -> Bool
    ) throws -> String {
        guard !places.isEmpty else { return "" }
        let items = try places.enumerated().map { (index, place) -> String in
            let id = "\(anchor)-\(index)"
            let dates = place.first == place.last ? place.first : "\(place.first) – \(place.last)"
            let summary = [
                Quantity.words(place.photos, "photo", "photos"), Quantity.words(place.days, "day", "days"), dates,
            ].joined(separator: " · ")
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
            if depth == 2, let placeID = place.cover.place, hasPage(placeID) {
                let page = relative(links.placePage(Place(id: placeID, fullName: place.name)), from: path)
                name = "<a class=\"visited-name\" href=\"\(HTML.text(page))\">\(HTML.text(place.name))</a>"
            }
            let children = try visitedList(
                place.children, anchor: id, depth: depth + 1, shown: shown, on: path, hasPage: hasPage)
            return "<li id=\"\(id)\" tabindex=\"-1\">\(cover)\(name) "
                + "<span class=\"visited-summary\">\(HTML.text(summary))</span>\(children)</li>"
        }
        return "<ul class=\"visited-places\">" + items.joined() + "</ul>"
    }
}

/// A country or region as the visited map draws it: its outline (a GeoJSON MultiPolygon's coordinates),
/// its shade, what a screen reader says of it and the list item it opens.
struct VisitedMapArea: Encodable {
    let anchor, label, level: String
    let step: Int
    let polygons: [[[[Double]]]]
}
