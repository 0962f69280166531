// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel
import PhotoMapSupport

/// The version of how pages are rendered: the digest of sample pages that use every part of the
/// templates (each kind of feature, every detail of a photo, clusters, a back link, credits, a tile,
/// a list file).
/// A photomap whose templates render differently has another fingerprint, and an export then makes
/// every page again instead of trusting pages an older template made.
enum TemplateFingerprint {
    static let value: String = {
        let adapter = AnnotationAdapter()
        let photo = Photo(
            id: "1", owner: "1@N01", pathAlias: "alias", secret: "s", server: "2",
            title: "A <title> & \"more\"",
            descriptionHTML: "<b>Bold</b> <a href=\"https://example.com/\">a link</a> text",
            ownerName: "Owner",
            dateTaken: "2011-04-15 17:48:17", tags: ["bridge", "river"],
            coordinate: Coordinate(latitude: 48.85, longitude: 2.35), placeID: "P",
            images: [.square: ImageReference(url: "https://example.com/1_s.jpg", width: 75, height: 75)],
            license: License(
                id: "4", name: "CC BY 2.0",
                url: "https://creativecommons.org/licenses/by/2.0/"))
        let unlocated = Photo(id: "2", title: "", descriptionHTML: "only a description")
        let place = Place(
            id: "P", fullName: "Paris, Ile-de-France, France",
            coordinate: Coordinate(latitude: 48.85, longitude: 2.35),
            url: "/France/Paris", photoCount: 12)
        let photoAnnotation = adapter.annotation(for: photo)
        var data = MapData(
            features: [
                MapData.Feature(
                    photoAnnotation, thumbnail: "../squares/1.jpg",
                    link: "../photos/1.html"),
                MapData.Feature(
                    adapter.annotation(for: unlocated), thumbnail: nil,
                    link: "../photos/2.html"),
                MapData.Feature(adapter.annotation(for: place), thumbnail: nil, link: "P.html"),
            ],
            placeholder: "../assets/placeholder.svg")
        data.clusters = MapData.ClusterIndex(
            folder: "../clusters/P", lists: "../lists/P", listChunk: 2, maxZoom: 3,
            tiles: ["1": ["0/0"]],
            bounds: [[1, 2], [3, 4]], total: 9)
        data.clusters?.months = [24122, 2]
        data.clusters?.listMonths = [[24122, 1], [24122, 1]]
        data.focus = [48.85, 2.35]
        var links = PageRenderer.Links(assets: "../assets", back: ("../index.html", "Top places"))
        links.siteLinks = [("../trips/index.html", "Trips"), ("../visited.html", "Places visited")]
        let credits = PageCredits(Set(PageCredits.Source.allCases))
        let samples = [
            try? PageRenderer.listPage(
                title: "Paris", subtitle: "12 photos", data: data, links: links,
                defaultView: "list", credits: credits),
            try? PageRenderer.photoPage(
                annotation: photoAnnotation, photo: photo, image: "../images/1.jpg", data: data,
                links: links,
                credits: credits),
            TileItem.script(
                zoom: 1, tile: "0/1",
                [
                    TileItem(
                        latitude: 1.25, longitude: 2.5, count: 3, months: [24122, 2],
                        properties: data.features[0].properties)
                ]),
            PageEntries.chunkScript(1, [data.features[2]]),
        ]
        return SHA256.hex(samples.map { $0 ?? "" }.joined(separator: "\u{0}"))
    }()
}
