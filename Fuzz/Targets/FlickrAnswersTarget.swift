// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel

/// Flickr's answers: the input is the body of every call (JSON or JSONP), read by each method's
/// decoder through `FlickrSource`, and every record kept made an annotation. Property: a listing or a
/// clear error, never a crash; never more photos than asked for; every photo kept has an id; every
/// annotation a title.
enum FlickrAnswersTarget {
    /// Answers every call with the input.
    struct Transport: FlickrTransport {
        let body: Data
        func call(method: String, parameters: [String: String]) throws -> Data { body }
    }

    static let target = FuzzTarget(
        name: "flickr-answers",
        summary: "Flickr's answers (every method's decoder, JSONP) through FlickrSource",
        options: ["-max_len=65536"]
    ) { bytes in
        let source = FlickrSource(transport: Transport(body: Data(bytes)))
        var annotations: [Annotation] = []
        for places in [try? source.topPlaces(), try? source.findPlaces("Portland")] {
            annotations += places?.entries.map(\.annotation) ?? []
        }
        if let place = try? source.placeInfo("GUxp_EgQ0EkOnY5Cq0") {
            annotations.append(AnnotationAdapter().annotation(for: place))
        }
        _ = try? source.licenses()
        if let photo = try? source.photoInfo("43201728095") {
            require(!photo.record.id.isEmpty, "a photo without an id was described")
            annotations.append(photo.annotation)
        }
        for limit in [1, 250] {
            guard let listing = try? source.photos(inPlace: "GUxp_EgQ0EkOnY5Cq0", limit: limit) else { continue }
            require(listing.items.count <= limit, "\(listing.items.count) photos for a limit of \(limit)")
            require(listing.items.allSatisfy { !$0.id.isEmpty }, "a photo without an id was kept")
            annotations += listing.entries.map(\.annotation)
        }
        if let found = try? source.searchPhotos(
            ["text": "bridge", "lat": "45.5", "lon": "-122.6", "radius": "5"],
            limit: 20)
        {
            require(found.items.count <= 20, "\(found.items.count) search results for a limit of 20")
        }
        require(annotations.allSatisfy { !$0.title.isEmpty }, "an annotation without a title")
        return true
    }
}
