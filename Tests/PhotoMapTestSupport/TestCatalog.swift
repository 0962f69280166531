// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A one-place catalog in Flickr's format whose squares are at the given URLs, for end-to-end runs
/// of `photomap` with `PHOTOMAP_FIXTURES` pointing at it.
public struct TestCatalog {
    /// The catalog folder (set PHOTOMAP_FIXTURES to it).
    public let folder: URL
    /// The place holding the photos.
    public let placeID = "TESTPLACE"

    /// Writes photos `0..<squareURLs.count`, photo i with its square at `squareURLs[i]`, 100 a page.
    public init(in parent: URL, squareURLs: [String]) throws {
        folder = parent.appendingPathComponent("catalog")
        let pages = folder.appendingPathComponent("photos/\(placeID)")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        let place: [String: Any] = [
            "place_id": placeID, "woeid": "1", "latitude": 48.85, "longitude": "2.35",
            "_content": "Testville, Testland", "woe_name": "Testville",
            "photo_count": squareURLs.count,
        ]
        try JSONSerialization.data(withJSONObject: ["places": ["total": 1, "place": [place]], "stat": "ok"])
            .write(to: folder.appendingPathComponent("top-places.json"))
        let photos: [[String: Any]] = squareURLs.enumerated().map { index, url in
            [
                "id": String(10_000_000_000 + index), "secret": "abc", "server": "1", "title": "Photo \(index)",
                "latitude": "48.85", "longitude": 2.35, "url_sq": url, "width_sq": 75, "height_sq": 75,
            ]
        }
        let pageCount = max((photos.count + 99) / 100, 1)
        for page in 1...pageCount {
            let slice = Array(photos[min((page - 1) * 100, photos.count)..<min(page * 100, photos.count)])
            let answer: [String: Any] = [
                "photos": [
                    "page": page, "pages": String(pageCount), "perpage": 100,
                    "total": String(photos.count), "photo": slice,
                ], "stat": "ok",
            ]
            try JSONSerialization.data(withJSONObject: answer).write(
                to: pages.appendingPathComponent("page-\(page).json"))
        }
    }
}
