// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapNetworking
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// Answers no decoder should trust, over libcurl from the Flickr-protocol server's `/hostile/…` and
/// `/huge/…` scenarios: each is a clear error (the JSON cannot be read) or a record kept without the
/// field that cannot (its text, its number), and a body past the limit is refused while it arrives.
@Suite("Hostile Flickr answers")
struct HostileAnswerTests {
    let server = LoopbackServer.flickr
    let place = "LATOAYBHhITBWjUq5GkE"

    func source(_ scenario: String) throws -> FlickrSource {
        FlickrSource(
            transport: try FlickrRESTTransport(
                endpoint: server.endpoint(scenario),
                apiKey: "key-\(UUID().uuidString)",
                cache: nil, client: HTTPClient(retryPolicy: .never)))
    }

    /// Every method's call, each answering what the scenario sends.
    func everyMethod(_ source: FlickrSource) -> [(method: String, call: () throws -> Void)] {
        [
            ("flickr.places.getTopPlacesList", { _ = try source.topPlaces() }),
            ("flickr.places.find", { _ = try source.findPlaces("Portland") }),
            ("flickr.photos.search", { _ = try source.photos(inPlace: place, limit: 10) }),
            ("flickr.photos.licenses.getInfo", { _ = try source.licenses() }),
        ]
    }

    @Test("JSON nested 1,000 deep: a clear error naming the method")
    func deep() throws {
        for (method, call) in everyMethod(try source("hostile/deep")) {
            let error = #expect(throws: FlickrError.self) { try call() }
            guard case let .malformedAnswer(named, detail)? = error else {
                Issue.record("\(method): \(String(describing: error))")
                continue
            }
            #expect(named == method && !detail.isEmpty)
        }
    }

    @Test(
        "invalid UTF-8 or a raw NUL in a string costs that field: the record is kept without it",
        arguments: ["bad-utf8", "raw-nul"])
    func unreadableText(kind: String) throws {
        let places = try source("hostile/\(kind)").topPlaces().items
        #expect(places.map(\.id) == ["1"] && places[0].fullName.isEmpty && places[0].coordinate != nil)
        let photos = try source("hostile/\(kind)").photos(inPlace: place, limit: 10).items
        #expect(photos.map(\.id) == ["1"] && photos[0].title.isEmpty)
        #expect(AnnotationAdapter().annotation(for: photos[0]).title == "Unknown")
    }

    @Test("an escaped NUL and escape sequence in a title is text: the record is kept as sent")
    func escapedControlCharacters() throws {
        let places = try source("hostile/escaped-nul").topPlaces().items
        #expect(places.map(\.fullName) == ["a\u{0}b\u{1B}[2J"])
        let photos = try source("hostile/escaped-nul").photos(inPlace: place, limit: 10).items
        #expect(photos.map(\.title) == ["a\u{0}b\u{1B}[2J"])
    }

    @Test("a number with 1,000 digits is no number: the record stays without it, and paging stops")
    func thousandDigits() throws {
        let places = try source("hostile/long-number").topPlaces()
        #expect(places.items.count == 1 && places.items[0].coordinate == nil && places.total == nil)
        let photos = try source("hostile/long-number").photos(inPlace: place, limit: 500)
        #expect(photos.items.count == 1 && photos.items[0].coordinate == nil)
    }

    @Test(
        "an answer past the limit is refused as it arrives, with a length given or not",
        arguments: ["length", "close"])
    func pastTheLimit(framing: String) throws {
        let error = #expect(throws: HTTPError.self) {
            try source("huge/40/\(framing)").photos(inPlace: place, limit: 10)
        }
        guard case let .transport(_, message, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(message.contains("larger than \(FlickrRESTTransport.maximumAnswerBytes) bytes"))
    }
}
