// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapSupport

/// Links to `photomap serve`'s routes: absolute paths on the server, each record id one
/// percent-encoded path segment (so an id such as "../x" stays one segment). Images are routes too,
/// fetched when the browser asks for them, not before.
struct ServedLinks: PageLinks, Sendable {
    let images: any ImageStore

    var assets: String { "/assets" }
    var servesAPI: Bool { true }

    func placePage(_ place: Place) -> String { "/places/" + Self.segment(place.id) }

    func photoPage(_ photo: Photo) -> String { "/photos/" + Self.segment(photo.id) }

    var tripsIndex: String { "/trips" }

    func tripPage(_ id: String) -> String { "/trips/" + Self.segment(id) }

    var visitedIndex: String { "/visited" }

    func visitedPage(_ id: String) -> String { "/visited/" + Self.segment(id) }

    func image(of photo: Photo, size: PhotoSize) -> String? {
        guard images.imageName(of: photo, size: size) != nil else { return nil }
        return (size == .medium ? "/images/" : "/squares/") + Self.segment(photo.id)
    }

    func link(from page: String, to target: String) -> String { target }

    /// `text` with everything but unreserved characters percent-encoded.
    static func segment(_ text: String) -> String {
        URLText.percentEncoded(text)
    }
}
