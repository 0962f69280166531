// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// Keeps what a source told its recorder.
final class RecorderSpy: ListingRecorder, @unchecked Sendable {
    // Only touched from the test's own thread.
    var told: (places: [AnnotatedPlace], photos: [AnnotatedPhoto]) = ([], [])

    func record(places: [AnnotatedPlace], photos: [AnnotatedPhoto]) {
        told.places += places
        told.photos += photos
    }
}

@Suite("Decoding Flickr's answers")
struct FlickrDecodingTests {
    @Test("numbers arrive as strings or numbers, even side by side")
    func stringOrNumber() throws {
        let transport = FakeFlickrTransport(
            """
            {"places":{"total":"2","place":[
              {"place_id":"a","woeid":615702,"latitude":48.85,"longitude":"2.35","place_type_id":"7","photo_count":"1200",
               "_content":"Paris, France"},
              {"place_id":"b","woeid":"2459115","latitude":"40.7","longitude":-74.0,"place_type_id":7,"photo_count":87,
               "_content":"New York"}
            ]},"stat":"ok"}
            """)
        let listing = try FlickrSource(transport: transport).topPlaces()
        #expect(listing.total == 2)
        #expect(listing.items.map(\.photoCount) == [1200, 87])
        #expect(listing.items.map(\.woeid) == ["615702", "2459115"])
        #expect(listing.items[0].coordinate == Coordinate(latitude: 48.85, longitude: 2.35))
        #expect(listing.items[1].coordinate == Coordinate(latitude: 40.7, longitude: -74.0))
        #expect(listing.items[1].typeID == 7)
        #expect(transport.calls.first?["place_type_id"] == "7")
    }

    @Test(
        "stat fail becomes an error quoting Flickr's code and message, the code as string or number",
        arguments: ["100", "\"100\""])
    func failure(code: String) throws {
        let transport = FakeFlickrTransport(
            #"{"stat":"fail","code":\#(code),"message":"Invalid API Key (Key has invalid format)"}"#)
        let error = #expect(throws: FlickrError.self) { try FlickrSource(transport: transport).topPlaces() }
        #expect(
            error
                == .apiFailure(
                    method: "flickr.places.getTopPlacesList", code: 100,
                    message: "Invalid API Key (Key has invalid format)"))
        #expect(
            error?.description
                == "Flickr rejected the API key (code 100): Invalid API Key (Key has invalid format)")
    }

    @Test("malformed JSON is an error naming the method")
    func malformed() {
        let error = #expect(throws: FlickrError.self) {
            try FlickrSource(transport: FakeFlickrTransport(#"{"places":{"total":"#)).topPlaces()
        }
        guard case let .malformedAnswer(method, _)? = error else {
            Issue.record("expected malformedAnswer, got \(String(describing: error))")
            return
        }
        #expect(method == "flickr.places.getTopPlacesList")
    }

    @Test("an answer without stat, or with the wrong shape, is malformed")
    func wrongShape() {
        #expect(
            throws: FlickrError.malformedAnswer(
                method: "flickr.places.getTopPlacesList",
                detail: "no \"stat\" field")
        ) {
            try FlickrSource(transport: FakeFlickrTransport(#"{"places":{}}"#)).topPlaces()
        }
        let error = #expect(throws: FlickrError.self) {
            try FlickrSource(transport: FakeFlickrTransport(#"{"stat":"ok","places":"none"}"#)).topPlaces()
        }
        #expect(error?.description.contains("places") == true)
    }

    @Test("a listing arrives annotated once, by the source's adapter; the recorder is told those same annotations")
    func annotatedOnce() throws {
        let transport = FakeFlickrTransport(
            """
            {"photos":{"page":1,"pages":1,"total":2,"photo":[
              {"id":"1","title":" Bridge ","secret":"s","server":"7","description":{"_content":"<b>Over</b> the river"}},
              {"id":"2","title":"","url_sq":"https://live.staticflickr.com/1/2_s_s.jpg",
               "description":{"_content":"only words"}}
            ]},"stat":"ok"}
            """, #"{"places":{"place":[{"place_id":"x","_content":"Oslo, Norway"}]},"stat":"ok"}"#)
        let recorder = RecorderSpy()
        let host = ImageHost(base: "http://127.0.0.1:9")
        let source = FlickrSource(transport: transport, adapter: AnnotationAdapter(imageHost: host), recorder: recorder)
        let photos = try source.photos(inPlace: "p", limit: 10).entries
        #expect(
            photos.map(\.annotation)
                == photos.map { AnnotationAdapter(imageHost: host).annotation(for: $0.record) })
        #expect(photos.map(\.annotation.title) == ["Bridge", "only words"])
        #expect(photos[0].annotation.thumbnailURL == "http://127.0.0.1:9/7/1_s_s.jpg")
        let places = try source.topPlaces().entries
        #expect(places.map(\.annotation.title) == ["Oslo"] && places.map(\.annotation.subtitle) == ["Norway"])
        #expect(recorder.told.photos == photos && recorder.told.places == places)
    }

    @Test("the embedded catalog's listings are annotated after its images move to the mirror")
    func annotatedAfterMirroring() throws {
        let catalog = LoopbackServer.repositoryRoot.appendingPathComponent("Fixtures/catalog")
        let source = FixtureSource(catalog: catalog, imageHost: ImageHost(base: "http://127.0.0.1:9"))
        let place = try #require(try source.topPlaces().items.first)
        let photo = try #require(try source.photos(inPlace: place.id, limit: 1).entries.first)
        #expect(photo.record.images[.square]?.url == photo.annotation.thumbnailURL)
        #expect(photo.annotation.thumbnailURL?.hasPrefix("http://127.0.0.1:9/") == true)
    }

    @Test("JSONP (no nojsoncallback=1) is unwrapped")
    func jsonp() throws {
        let transport = FakeFlickrTransport(
            #"jsonFlickrApi({"places":{"place":[{"place_id":"x","_content":"Oslo, Norway"}]},"stat":"ok"})"#)
        #expect(try FlickrSource(transport: transport).topPlaces().items.map(\.id) == ["x"])
    }

    @Test("a record missing its id is skipped and reported; the others are kept")
    func missingField() throws {
        let transport = FakeFlickrTransport(
            """
            {"photos":{"page":1,"pages":1,"perpage":100,"total":3,"photo":[
              {"id":"1","title":"kept","latitude":"abc","longitude":"2.0"},
              {"title":"no id"},
              {"id":"","title":"empty id"},
              {"id":3,"title":42,"latitude":"51.5","longitude":"-0.12","description":{"_content":"x"}}
            ]},"stat":"ok"}
            """)
        let listing = try FlickrSource(transport: transport).photos(inPlace: "p", limit: 10)
        #expect(listing.items.map(\.id) == ["1", "3"])
        #expect(listing.items[0].coordinate == nil, "a latitude that is not a number is no coordinate")
        #expect(listing.items[1].title == "42")
        #expect(listing.items[1].coordinate == Coordinate(latitude: 51.5, longitude: -0.12))
        #expect(listing.skipped.count == 2)
        #expect(listing.skipped[0].contains("missing field \"id\""))
    }

    @Test("an odd field (a description as a bare string, a title as an object) costs that field, not the record")
    func oddFields() throws {
        let transport = FakeFlickrTransport(
            """
            {"photos":{"page":1,"pages":1,"total":2,"photo":[
              {"id":"1","title":"T","description":"plain string","tags":["not","a","string"]},
              {"id":"2","title":{"_content":"x"},"description":{"_content":42}}
            ]},"stat":"ok"}
            """)
        let photos = try FlickrSource(transport: transport).photos(inPlace: "p", limit: 10).items
        #expect(photos.map(\.id) == ["1", "2"])
        #expect(photos[0].descriptionHTML == "plain string")
        #expect(photos[0].tags.isEmpty)
        #expect(photos[1].title == "")
        #expect(photos[1].descriptionHTML == "42")
    }

    @Test("paging stops when a page brings nothing new, whatever pages says")
    func pagingStopsOnRepeats() throws {
        let transport = FakeFlickrTransport(
            #"{"photos":{"page":1,"pages":"4000","perpage":2,"total":"8000","#
                + #""photo":[{"id":"1"},{"id":"2"}]},"stat":"ok"}"#)
        let listing = try FlickrSource(transport: transport).photos(inPlace: "p", limit: 100)
        #expect(listing.items.map(\.id) == ["1", "2"])
        #expect(transport.calls.count == 2)
    }

    @Test("pages are read while the next is asked for, yet asked for one at a time, in order, none past the last")
    func pagesAskedOneAtATime() throws {
        let transport = FakeFlickrTransport.pages(announced: 6, newUntil: 6)
        let listing = try FlickrSource(transport: transport).photos(inPlace: "p", limit: 100)
        #expect(listing.items.map(\.id) == (1...12).map(String.init))
        #expect(transport.pages == Array(1...6) && transport.mostInProgress == 1)

        // Page 4 brings nothing new: the listing ends there. Pages asked for ahead of it are the only extra
        // calls, at most one for each page read at once.
        let repeating = FakeFlickrTransport.pages(announced: 6, newUntil: 3)
        #expect(try FlickrSource(transport: repeating).photos(inPlace: "p", limit: 100).items.count == 6)
        #expect(repeating.pages == Array(1...repeating.pages.count) && repeating.mostInProgress == 1)
        #expect((4...3 + FlickrSource.pagesRead).contains(repeating.pages.count))
    }

    @Test("paging never asks past Flickr's 4,000th result")
    func pagingStopsAt4000() throws {
        let counter = FakeFlickrTransport.endlessPages()
        let listing = try FlickrSource(transport: counter).searchPhotos(["text": "x"], limit: 4_000)
        #expect(listing.items.count == 4_000)
        #expect(counter.calls.count == 8, "8 pages of 500")
    }

    @Test("paging asks for per_page up to 500 and stops at the limit or the last page")
    func paging() throws {
        func page(_ number: Int, ids: ClosedRange<Int>, pages: String) -> String {
            let photos = ids.map { #"{"id":"\#($0)","title":"t\#($0)"}"# }.joined(separator: ",")
            return #"{"photos":{"page":\#(number),"pages":\#(pages),"perpage":2,"total":"5","#
                + #""photo":[\#(photos)]},"stat":"ok"}"#
        }
        let transport = FakeFlickrTransport(
            page(1, ids: 1...2, pages: "\"3\""), page(2, ids: 2...3, pages: "3"),
            page(3, ids: 4...5, pages: "3"))
        var arrived: [[String]] = []
        let listing = try FlickrSource(transport: transport).photos(inPlace: "p", limit: 4) { page in
            arrived.append(page.map(\.record.id))
        }
        #expect(listing.items.map(\.id) == ["1", "2", "3", "4"], "a photo repeated across pages is listed once")
        #expect(arrived == [["1", "2"], ["3"], ["4"]], "each page's new entries are told as the page is read")
        #expect(transport.calls.map { $0["page"] } == ["1", "2", "3"])
        #expect(transport.calls.allSatisfy { $0["per_page"] == "4" && $0["place_id"] == "p" })
        #expect(
            transport.calls[0]["extras"]
                == "description,license,geo,date_taken,owner_name,path_alias,tags,media,url_sq,url_q,url_m")
        #expect(transport.calls[0]["media"] == "photos")

        let short = FakeFlickrTransport(page(1, ids: 1...2, pages: "1"))
        #expect(try FlickrSource(transport: short).photos(inPlace: "p", limit: 1000).items.count == 2)
        #expect(short.calls.count == 1)
        #expect(short.calls[0]["per_page"] == "250", "geo queries are served 250 a page at most")
    }

    @Test("read as JSONDecoder read them: numbers as Swift prints them, the first repeated key, a bad value lost alone")
    func asJSONDecoderDid() throws {
        let control = "\u{01}"
        let transport = FakeFlickrTransport(
            """
            {"photos":{"page":1,"pages":1,"total":1e1,"photo":[
              {"id":1e2,"title":"first","title":"second","latitude":"48.850000","longitude":2.35e0,
               "width_sq":75.0,"url_sq":"u"},
              {"id":"2","title":"a\(control)b","owner":"\\ud800","tags":"x\\u00e9y"},
              {"id":"3","k\(control)ey":1},
              {"id":"4","license":01,"server":12345678901234567890,"secret":1e400,"ownername":true}
            ]},"stat":"ok"}
            """)
        let listing = try FlickrSource(transport: transport).photos(inPlace: "p", limit: 10)
        #expect(
            listing.items.map(\.id) == ["100", "2", "4"],
            "an object with a key that is not text is a skipped record")
        #expect(listing.total == 10)
        #expect(listing.skipped.count == 1 && listing.skipped[0].contains("item 3"))
        let first = listing.items[0], second = listing.items[1], fourth = listing.items[2]
        #expect(first.title == "first")
        #expect(first.coordinate == Coordinate(latitude: 48.85, longitude: 2.35))
        #expect(first.images[.square]?.width == 75)
        #expect(
            second.title == "" && second.owner == "",
            "a raw control character or a lone surrogate loses that value only")
        #expect(second.tags == ["xéy"])
        #expect(fourth.license == nil && fourth.secret == "", "01 and 1e400 are no numbers")
        #expect(fourth.server == "1.2345678901234567e+19")
        #expect(fourth.ownerName == "1")
    }

    @Test("nesting deeper than 512 is malformed, without exhausting the stack", arguments: [513, 100_000])
    func deepNesting(depth: Int) {
        let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let transport = FakeFlickrTransport(#"{"photos":{"photo":[{"id":"1","x":\#(nested)}]},"stat":"ok"}"#)
        #expect(throws: FlickrError.self) { try FlickrSource(transport: transport).photos(inPlace: "p", limit: 10) }
    }
}
