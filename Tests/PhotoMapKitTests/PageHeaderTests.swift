// SPDX-License-Identifier: Apache-2.0
import PhotoMapSupport
import Testing

@testable import PhotoMapKit
@testable import PhotoMapServer

@Suite("Pages: the header, the credits and counts in words")
struct PageHeaderTests {
    let data = MapData(features: [], placeholder: "p.svg")
    let credits = PageCredits([.catalog])

    func listPage(view: String, links: PageRenderer.Links) throws -> String {
        try PageRenderer.listPage(
            title: "Paris", subtitle: "1 photo", data: data, links: links, defaultView: view,
            credits: credits)
    }

    @Test("counts say one thing in the singular, any other number in the plural")
    func quantities() {
        #expect(Quantity.words(1, "photo", "photos") == "1 photo")
        #expect(Quantity.words(2, "photo", "photos") == "2 photos")
        #expect(Quantity.words(0, "place", "places") == "0 places")
    }

    @Test("a subtitle says how many of how many, and joins only what says something")
    func subtitles() {
        #expect(
            PageSubtitle.photos(shown: 100, total: 214, detail: "Ile-de-France, France")
                == "100 of 214 photos · Ile-de-France, France")
        #expect(
            PageSubtitle.photos(shown: 214, total: 214, detail: "Ile-de-France, France")
                == "214 photos · Ile-de-France, France")
        #expect(PageSubtitle.photos(shown: 10, total: nil, detail: "") == "10 photos", "no stray separator")
        #expect(PageSubtitle.photos(shown: 1, total: 1, detail: nil) == "1 photo")
        #expect(PageSubtitle.joined(["1 place", nil, "", "2 photos"]) == "1 place · 2 photos")
    }

    @Test("Show more links the page with more photos, up to what the source holds and the server lists")
    func showMore() {
        #expect(
            ServerRoutes.more(path: "/places/p", shown: 100, total: 214)! == ("/places/p?limit=200", "Show 100 more"))
        #expect(
            ServerRoutes.more(path: "/places/p", shown: 200, total: 214)! == ("/places/p?limit=214", "Show 14 more"))
        #expect(ServerRoutes.more(path: "/places/p", shown: 214, total: 214) == nil)
        #expect(ServerRoutes.more(path: "/places/p", shown: 100, total: nil) == nil)
        #expect(ServerRoutes.more(path: "/places/p", shown: 4_000, total: 9_000) == nil, "the server's limit")
    }

    @Test("the coasts' levels cover every zoom from their first on: the outline draws only below it or without them")
    func coastLevelsAreContiguous() {
        let zooms = CoastIndex(tiles: nil).levels.map { $0[0]...$0[1] }
        for (lower, upper) in zip(zooms, zooms.dropFirst()) { #expect(upper.lowerBound == lower.upperBound + 1) }
        #expect(zooms.last?.upperBound ?? 0 >= 19, "Leaflet's last zoom with tiles (maxZoom 19)")
    }

    @Test("the toggle says which view is shown from the first paint", arguments: ["list", "map"])
    func togglePressed(view: String) throws {
        let html = try listPage(view: view, links: PageRenderer.Links(assets: "assets"))
        let other = view == "list" ? "map" : "list"
        #expect(html.contains("data-show=\"\(view)\" aria-pressed=\"true\""))
        #expect(html.contains("data-show=\"\(other)\" aria-pressed=\"false\""))
    }

    @Test("back link and title in one heading; a link elsewhere only when given; the credits fold in a details")
    func heading() throws {
        let served = try listPage(
            view: "list",
            links: PageRenderer.Links(
                assets: "/assets", back: ("/", "Top places"), elsewhere: ("/recent", "Recently viewed"), servesAPI: true
            ))
        #expect(
            served.contains(
                "<div class=\"heading\"><a class=\"back\" href=\"/\">‹ Top places</a><div class=\"titles\"><h1>Paris</h1>"
            ))
        #expect(served.contains("<a class=\"elsewhere\" href=\"/recent\">Recently viewed ›</a>"))
        #expect(served.contains("<div class=\"search-legend\" hidden>"))
        let file = try listPage(view: "list", links: PageRenderer.Links(assets: "assets"))
        #expect(!file.contains("class=\"elsewhere\"") && !file.contains("search-legend"))
        #expect(file.contains("<footer><details class=\"credits\"><summary>"))
        #expect(file.contains(PageCredits.flickrNotice))
    }
}
