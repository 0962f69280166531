// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// A source that looks places up by name (Flickr's flickr.places.find: "not a geocoder", an address
/// rounds up to its city). The embedded catalog has no such lookup: its places are in the gazetteer.
public protocol PlaceFinding: Sendable {
    /// The places a typed name may mean, in the source's order.
    func findPlaces(_ query: String) throws -> Listing<Place>
}

/// A source that searches photos by criteria (text, lat, lon, radius, …: flickr.photos.search).
/// The embedded catalog is searched through the local index instead.
public protocol PhotoSearching: Sendable {
    /// Up to `limit` photos matching `criteria`, in the source's order.
    func searchPhotos(_ criteria: [String: String], limit: Int) throws -> Listing<Photo>
}

/// A source that tells about one place by its id (Flickr's flickr.places.getInfo; the embedded
/// catalog answers from its own places): a page names a place without listing the top places again.
public protocol PlaceDescribing: Sendable {
    /// The place with this id.
    func placeInfo(_ placeID: String) throws -> Place
}

/// A source that tells about one photo by its id (Flickr's flickr.photos.getInfo; the embedded catalog
/// answers from its own photos): a page shared or bookmarked opens even when nothing listed it here.
public protocol PhotoDescribing: Sendable {
    /// The photo with this id, annotated; nil when the source has no such photo.
    func photoInfo(_ photoID: String) throws -> AnnotatedPhoto?
}

extension FlickrSource: PlaceFinding, PhotoSearching, PlaceDescribing, PhotoDescribing {}

/// A source whose records change while a server shows them (the imported photos: an import, a geofence
/// added or removed): a server forgets what it listed when the version moves on.
public protocol ChangingSource: Sendable {
    /// A number that moves on whenever the records change.
    func version() throws -> Int
}
