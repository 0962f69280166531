// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("Embedded catalog")
struct FixtureSourceTests {
    let catalog = LoopbackServer.repositoryRoot.appendingPathComponent("Fixtures/catalog")
    var source: FixtureSource { FixtureSource(catalog: catalog) }

    @Test("holds at least 40 places with coordinates and at least 1,000 geotagged photos, plus some without geo")
    func size() throws {
        let places = try source.topPlaces().items
        #expect(places.count >= 40)
        #expect(places.allSatisfy { $0.coordinate != nil })
        var geotagged = 0, withoutGeo = 0, videos = 0
        for place in places {
            let photos = try source.photos(inPlace: place.id, limit: FlickrSource.maximumResults)
            #expect(photos.skipped.isEmpty)
            // The listings were recorded without media=photos: the count holds the videos left out.
            videos += (place.photoCount ?? 0) - photos.items.count
            geotagged += photos.items.filter { $0.coordinate != nil }.count
            withoutGeo += photos.items.filter { $0.coordinate == nil }.count
        }
        #expect(geotagged >= 1_000)
        #expect(withoutGeo > 0)
        #expect(videos == 4)
    }

    @Test("the limit pages through recorded pages without repeating a photo")
    func limitAcrossPages() throws {
        let newYork = try #require(try source.topPlaces().items.first { $0.fullName.hasPrefix("New York") })
        let photos = try source.photos(inPlace: newYork.id, limit: 250).items
        #expect(photos.count == 250)
        #expect(Set(photos.map(\.id)).count == 250)
        #expect(try source.photos(inPlace: newYork.id, limit: 7).items.map(\.id) == Array(photos.prefix(7).map(\.id)))
    }

    @Test("a place's records are let go after its last page, and read again for its next listing")
    func placeListedTwice() throws {
        let source = self.source
        let place = try #require(try source.topPlaces().items.first)
        let transport = FixtureTransport(catalog: catalog)
        let search = ["place_id": place.id, "per_page": "5"]
        let first = try source.photos(inPlace: place.id, limit: FlickrSource.maximumResults).items
        #expect(try source.photos(inPlace: place.id, limit: FlickrSource.maximumResults).items == first)
        // Paged past its end, then from the start: the same answers.
        let pageOne = try transport.call(
            method: "flickr.photos.search", parameters: search.merging(["page": "1"]) { $1 })
        _ = try transport.call(method: "flickr.photos.search", parameters: search.merging(["page": "9999"]) { $1 })
        #expect(
            try transport.call(method: "flickr.photos.search", parameters: search.merging(["page": "1"]) { $1 })
                == pageOne)
    }

    @Test("holds Radio City Music Hall at its coordinate")
    func landmark() throws {
        let newYork = try #require(try source.topPlaces().items.first { $0.fullName.hasPrefix("New York") })
        let hall = try #require(
            try source.photos(
                inPlace: newYork.id,
                limit: 4000
            ).items.first { $0.title == "Radio City Music Hall" })
        let coordinate = try #require(hall.coordinate)
        #expect(abs(coordinate.latitude - 40.7600) < 0.001 && abs(coordinate.longitude + 73.9799) < 0.001)
    }

    @Test(
        "an unknown place, or an id that tries to leave the catalog, is a clear error",
        arguments: ["nowhere", "../catalog", "..", "a/b", ""])
    func unknownPlace(id: String) {
        #expect(throws: FlickrError.unknownPlace(id)) { try source.photos(inPlace: id, limit: 5) }
    }

    @Test("answers flickr.places.getInfo from its own places; an id it lacks fails with Flickr's code 2")
    func placeInfo() throws {
        for listed in try source.topPlaces().items {
            var place = try source.placeInfo(listed.id)
            #expect(place.photoCount == nil)
            place.photoCount = listed.photoCount
            #expect(place == listed)
        }
        for id in ["nowhere", "../catalog"] {
            #expect(
                throws: FlickrError.apiFailure(
                    method: "flickr.places.getInfo", code: 2,
                    message: "Not a valid Places ID")
            ) {
                try source.placeInfo(id)
            }
        }
    }

    @Test("with another image host, the catalog's image URLs point there")
    func imageHostRewrite() throws {
        let local = FixtureSource(catalog: catalog, imageHost: ImageHost(base: "http://127.0.0.1:9"))
        let place = try #require(try local.topPlaces().items.first)
        let photo = try #require(try local.photos(inPlace: place.id, limit: 1).items.first)
        #expect(photo.images[.square]?.url.hasPrefix("http://127.0.0.1:9/") == true)
        #expect(photo.images[.square]?.width == 75)
    }

    @Test("the catalog is found above the executable, or where PHOTOMAP_FIXTURES says")
    func locate() {
        let executable = LoopbackServer.repositoryRoot.appendingPathComponent(".build/release/photomap").path
        #expect(
            FixtureSource.locateCatalog(environment: [:], executable: executable)?.standardizedFileURL
                == catalog.standardizedFileURL)
        #expect(
            FixtureSource.locateCatalog(environment: ["PHOTOMAP_FIXTURES": "/tmp/x"], executable: executable)
                == URL(fileURLWithPath: "/tmp/x"))
    }

    @Test("flickr.photos.getInfo from the catalog reads into the photo its listing gives; an unknown id is none")
    func photoInfo() throws {
        let listed = try #require(try source.photos(inPlace: "CTUuhTIRnlu09x0F", limit: 1).entries.first)
        let described = try #require(try source.photoInfo(listed.record.id))
        #expect(described.annotation.title == listed.annotation.title)
        #expect(described.annotation.subtitle == listed.annotation.subtitle)
        #expect(described.annotation.coordinate == listed.annotation.coordinate)
        #expect(described.record.owner == listed.record.owner && described.record.ownerName == listed.record.ownerName)
        #expect(described.record.tags == listed.record.tags && described.record.dateTaken == listed.record.dateTaken)
        #expect(described.record.placeID == listed.record.placeID)
        #expect(described.record.license == listed.record.license)
        #expect(described.annotation.pageURL == listed.annotation.pageURL)
        #expect(try source.photoInfo("99999999999")?.record.id == nil)
        #expect(try source.photoInfo("../../etc/passwd")?.record.id == nil)
    }

    @Test("flickr.photos.getInfo looks ids up in an index of every record: each photo listed is found, others not")
    func photoIndex() throws {
        let transport = FixtureTransport(catalog: catalog)
        func described(_ id: String) throws -> FlickrAnswer<Never> {
            try FlickrAnswer.status(
                of: try transport.call(method: "flickr.photos.getInfo", parameters: ["photo_id": id]))
        }
        var listed: [String: String] = [:]
        for place in try source.topPlaces().items {
            for photo in try source.photos(inPlace: place.id, limit: FlickrSource.maximumResults).items {
                listed[photo.id] = place.id
            }
        }
        let index = transport.photoIndex()
        #expect(listed.count >= 1_000)
        // Every photo is indexed at its own place (videos too, which listings leave out).
        #expect(
            listed.allSatisfy { index[$0.key]?.place == $0.value }, "\(listed.count) listed, \(index.count) indexed")
        for id in listed.keys.sorted().prefix(25) {
            #expect(try described(id).stat == "ok", "\(id)")
        }
        for id in ["99999999999", "0", (listed.keys.first ?? "") + "1", "", "\"", "../1"] {
            let answer = try described(id)
            #expect(answer.stat == "fail" && answer.code?.int == 1, "\(id)")
        }
    }
}
