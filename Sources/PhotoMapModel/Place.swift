// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A place from Flickr's places API, such as a locality in the top-places list.
public struct Place: Sendable, Hashable {
    /// Flickr's place_id, the key for searching photos taken there.
    public var id: String
    /// Yahoo's Where On Earth ID.
    public var woeid: String
    /// The full name, e.g. "Paris, Ile-de-France, France" (Flickr's `_content`), as Flickr sends it.
    public var fullName: String
    /// The short name, e.g. "Paris" (Flickr's `woe_name`).
    public var shortName: String
    /// The reported centre; nil when Flickr sent no valid coordinate.
    public var coordinate: Coordinate?
    /// The path of the place's page on flickr.com, e.g. "/France/Ile-de-France/Paris".
    public var url: String
    /// "locality", "region", "country", …
    public var type: String
    /// Flickr's place_type_id (7 for a locality).
    public var typeID: Int?
    /// The number of photos Flickr counted there, when reported.
    public var photoCount: Int?
    /// The IANA time zone, e.g. "Europe/Paris".
    public var timezone: String

    /// Creates a place; everything but the id may be empty.
    public init(
        id: String, woeid: String = "", fullName: String, shortName: String = "",
        coordinate: Coordinate? = nil, url: String = "", type: String = "", typeID: Int? = nil,
        photoCount: Int? = nil, timezone: String = ""
    ) {
        self.id = id
        self.woeid = woeid
        self.fullName = fullName
        self.shortName = shortName
        self.coordinate = coordinate
        self.url = url
        self.type = type
        self.typeID = typeID
        self.photoCount = photoCount
        self.timezone = timezone
    }
}

extension Place {
    /// The place's page on Flickr, `https://www.flickr.com/places{place_url}`, or nil when Flickr sent
    /// no place_url. The path is percent-encoded, so no quote, space or control character reaches the
    /// link (pages check every link again where they write it).
    public var flickrPageURL: String? {
        guard !url.isEmpty,
            let path = url.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)
        else { return nil }
        return "https://www.flickr.com/places" + path
    }
}
