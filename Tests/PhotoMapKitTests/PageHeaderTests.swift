import Testing

@testable import PhotoMapKit

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
