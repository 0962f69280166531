// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

// Trips' pages (`TripAlbum`): the index of trips, and a page per trip with its way under its photos and a
// section per day, each with its own small map, printable a day a page. Served at /trips and /trips/ID,
// written by `export` (trips/) and `trips --map`. The places you have been: `PageBuilder+Visited`.
extension PageBuilder where Links: PageLinks {
    /// The index of trips at `path`: each trip, newest first, at its first located photo, linking to its page.
    public func tripsIndexPage(
        _ album: TripAlbum, at path: String, back: (path: String, label: String)?
    ) throws -> String {
        var features: [MapData.Feature] = []
        var ways: [[Coordinate]] = []
        for trip in album.trips {
            let photos = album.photos(of: trip)
            let cover = photos.first { $0.record.coordinate != nil }
            let annotation = Annotation(
                kind: .place, id: trip.id, title: trip.name, subtitle: Self.summary(of: trip, photos: nil),
                coordinate: cover?.record.coordinate, photoCount: photos.count)
            features.append(
                MapData.Feature(annotation, thumbnail: nil, link: relative(links.tripPage(trip.id), from: path)))
            ways += trip.way
        }
        var plain = self
        plain.tracks = nil
        var data = plain.mapData(features, for: path, labels: PlaceLabels.perListPage)
        data.tracks = album.drawing(ways)
        return try PageRenderer.listPage(
            title: "Trips", subtitle: Quantity.words(album.trips.count, "trip", "trips"), data: data,
            links: pageLinks(for: path, back: back), defaultView: "list", credits: credits)
    }

    /// A trip's page at `path`: its photos the viewer may see, on the map over its way and in the list,
    /// then a section per day with the day's places, its own map and its photos.
    public func tripPage(
        _ trip: Trip, album: TripAlbum, at path: String, back: (path: String, label: String)?
    ) throws -> String {
        let photos = album.photos(of: trip)
        let features = try self.features(of: photos, on: path)
        var plain = self
        plain.tracks = nil
        var data = plain.mapData(features, for: path, labels: PlaceLabels.perListPage)
        data.tracks = album.drawing(trip.way)
        data.monthStep = MonthTaken.step(features.map(\.month))
        let dateOfPhoto = Dictionary(trip.photos.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var days: [MapData.DayMap] = []
        var sections = ""
        let dates = Array(Set(photos.compactMap { dateOfPhoto[$0.record.id]?.date })).sorted()
        for (number, date) in dates.enumerated() {
            let indices = photos.indices.filter { dateOfPhoto[photos[$0].record.id]?.date == date }
            // Named by the places of the photos the viewer sees located: a fenced photo's place is not theirs.
            let places = TripFinder.ranked(
                indices.compactMap {
                    photos[$0].record.coordinate == nil ? nil : dateOfPhoto[photos[$0].record.id]?.placeName
                })
            let map = "day-map-\(number + 1)"
            days.append(
                MapData.DayMap(
                    map: map, tracks: album.drawing(trip.way(on: date)),
                    entries: indices.filter { features[$0].geometry != nil }))
            sections += Self.daySection(
                number: number + 1, date: date, places: places, map: map, features: indices.map { features[$0] },
                placeholder: data.placeholder)
        }
        data.days = days
        let after = "<section class=\"trip-days\" aria-label=\"Days\">\(sections)</section>"
        return try PageRenderer.listPage(
            title: trip.name, subtitle: Self.summary(of: trip, photos: photos.count), data: data,
            links: pageLinks(for: path, back: back),
            defaultView: features.contains { $0.geometry != nil } ? "map" : "list",
            credits: credits, after: after)
    }

    /// "2024-07-12 – 2024-07-19 · 8 days · 640 km · Slovenia, Italy", with the photos shown when given.
    static func summary(of trip: Trip, photos: Int?) -> String {
        let dates = trip.from == trip.to ? trip.from : "\(trip.from) – \(trip.to)"
        return
            ([dates, Quantity.words(trip.days, "day", "days")]
            + (photos.map { [Quantity.words($0, "photo", "photos")] } ?? [])
            + ["\(Quantity.grouped(Int(trip.kilometres.rounded()))) km", trip.countries.joined(separator: ", ")]).filter
        { !$0.isEmpty }.joined(separator: " · ")
    }

    /// A day's section: its heading, its places, the element its map goes in, its photos' squares.
    static func daySection(
        number: Int, date: String, places: [String], map: String, features: [MapData.Feature], placeholder: String
    ) -> String {
        let squares = features.map { feature in
            let properties = feature.properties
            let image =
                "<img src=\"\(HTML.text(properties.thumbnail ?? placeholder))\" alt=\"\(HTML.text(properties.title))\" "
                + "width=\"75\" height=\"75\" loading=\"lazy\">"
            return "<li>" + (properties.link.map { "<a href=\"\(HTML.text($0))\">\(image)</a>" } ?? image) + "</li>"
        }.joined()
        let located = features.contains { $0.geometry != nil }
        return """
            <section class="trip-day" id="day-\(number)" aria-labelledby="day-\(number)-title">\
            <h2 id="day-\(number)-title">Day \(number) · \(HTML.text(date))</h2>\
            <p class="day-places">\(HTML.text(places.isEmpty ? "No located photo" : places.joined(separator: " · ")))</p>\
            \(located ? "<div class=\"day-map\" id=\"\(map)\" role=\"region\" aria-label=\"Map of day \(number)\"></div>" : "")\
            <ul class="day-photos">\(squares)</ul></section>
            """
    }
}
