// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel
import Testing

@testable import PhotoMapKit

@Suite("Annotation adapter")
struct AnnotationAdapterTests {
    let adapter = AnnotationAdapter()

    @Test("a place's title is its name up to the first comma, the rest its subtitle")
    func placeSplitsAtFirstComma() {
        let annotation = adapter.annotation(
            for: Place(
                id: "p1", fullName: "Paris, Ile-de-France, France",
                coordinate: Coordinate(latitude: 48.85, longitude: 2.35),
                photoCount: 12))
        #expect(annotation.kind == .place)
        #expect(annotation.title == "Paris")
        #expect(annotation.subtitle == "Ile-de-France, France")
        #expect(annotation.photoCount == 12)
        #expect(annotation.coordinate == Coordinate(latitude: 48.85, longitude: 2.35))
    }

    @Test("a place name without a comma is all title", arguments: ["Singapore", "  Singapore "])
    func placeWithoutComma(name: String) {
        let annotation = adapter.annotation(for: Place(id: "p", fullName: name))
        #expect(annotation.title == "Singapore")
        #expect(annotation.subtitle == "")
    }

    @Test("place names keep their characters, markup included")
    func placeNamesAreNotInterpreted() {
        let annotation = adapter.annotation(
            for: Place(
                id: "p",
                fullName: "Zürich &amp; <b>Co</b>, Zurich, Switzerland"))
        #expect(annotation.title == "Zürich &amp; <b>Co</b>")
        #expect(annotation.subtitle == "Zurich, Switzerland")
    }

    @Test("a photo's title is its title, trimmed; the subtitle the description's first words")
    func photoWithTitle() {
        let photo = Photo(
            id: "1", title: "  Golden Gate Bridge \n",
            descriptionHTML: "Fog over the <a href=\"https://example.org\">bay</a> &amp; the city")
        let annotation = adapter.annotation(for: photo)
        #expect(annotation.title == "Golden Gate Bridge")
        #expect(annotation.subtitle == "Fog over the bay & the city")
    }

    @Test(
        "an empty or blank title gives way to the description, and the subtitle is then empty",
        arguments: ["", "   ", "\n\t"])
    func photoWithoutTitle(title: String) {
        let annotation = adapter.annotation(for: Photo(id: "1", title: title, descriptionHTML: "<b>Rainy</b> morning"))
        #expect(annotation.title == "Rainy morning")
        #expect(annotation.subtitle == "")
    }

    @Test("a photo with neither title nor description is \"Unknown\"")
    func photoWithNothing() {
        let annotation = adapter.annotation(for: Photo(id: "1", title: " ", descriptionHTML: " <br /> "))
        #expect(annotation.title == "Unknown")
        #expect(annotation.subtitle == "")
    }

    @Test(
        "hostile titles stay exactly as Flickr sent them: escaping is the output's job",
        arguments: [
            "<img src=x onerror=alert(1)>", "</script><script>alert(\"pwned\")</script>",
            "\" onmouseover=\"alert(1)",
        ])
    func hostileTitlesAreKept(title: String) {
        #expect(adapter.annotation(for: Photo(id: "1", title: title)).title == title)
    }

    @Test("a long description is cut at a word boundary with an ellipsis")
    func longDescriptionIsCut() {
        let words = Array(repeating: "lorem ipsum", count: 20).joined(separator: " ")
        let subtitle = adapter.annotation(for: Photo(id: "1", title: "T", descriptionHTML: words)).subtitle
        #expect(subtitle.hasSuffix("…"))
        #expect(subtitle.count <= 81)
        #expect(subtitle.count > 40)
        // The cut falls between words: what precedes the ellipsis is whole words of the text.
        #expect(words.hasPrefix(String(subtitle.dropLast())))
        #expect(words[words.index(words.startIndex, offsetBy: subtitle.count - 1)] == " ")
    }

    @Test("out-of-range values are no coordinate, nor is (0, 0) in Flickr's answers; the photo is still annotated")
    func invalidCoordinates() {
        #expect(Coordinate.flickr(latitude: 0, longitude: 0) == nil)
        #expect(Coordinate.flickr(latitude: 0, longitude: 12.5) != nil)
        // Elsewhere (--near, the gazetteer, the server's API) (0, 0) is a point in the Gulf of Guinea.
        #expect(Coordinate(latitude: 0, longitude: 0) != nil)
        #expect(Coordinate(latitude: 91, longitude: 10) == nil)
        #expect(Coordinate(latitude: 10, longitude: -180.5) == nil)
        #expect(Coordinate(latitude: .nan, longitude: 1) == nil)
        #expect(Coordinate(latitude: nil, longitude: 1) == nil)
        #expect(Coordinate(latitude: 0, longitude: 12.5) != nil)
        let annotation = adapter.annotation(for: Photo(id: "9", title: "No geo", coordinate: nil))
        #expect(annotation.coordinate == nil)
        #expect(annotation.title == "No geo")
    }

    @Test("image URLs come from the record, else from the image host and server/id/secret")
    func imageURLs() {
        var photo = Photo(id: "123", secret: "abc", server: "65535")
        let local = AnnotationAdapter(imageHost: ImageHost(base: "http://127.0.0.1:8080/"))
        #expect(local.annotation(for: photo).thumbnailURL == "http://127.0.0.1:8080/65535/123_abc_s.jpg")
        #expect(local.annotation(for: photo).imageURL == "http://127.0.0.1:8080/65535/123_abc.jpg")
        photo.images[.square] = ImageReference(url: "https://example.org/sq.jpg", width: 75, height: 75)
        #expect(local.annotation(for: photo).thumbnailURL == "https://example.org/sq.jpg")
        #expect(AnnotationAdapter().annotation(for: Photo(id: "1")).thumbnailURL == nil)
    }
}
