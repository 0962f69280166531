// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// Where places and photos come from: the Flickr REST API or the embedded catalog.
public protocol PhotoSource: Sendable {
    /// The top places (localities), most photographed first.
    func topPlaces() throws -> Listing<Place>
    /// Up to `limit` photos taken in the place with this id; `arriving` is told each page's new entries as
    /// the page is read, so work on them (fetching their squares) overlaps asking for the next.
    func photos(
        inPlace placeID: String, limit: Int,
        arriving: (ArraySlice<AnnotatedPhoto>) -> Void
    ) throws -> Listing<Photo>
}

extension PhotoSource {
    /// Up to `limit` photos taken in the place with this id.
    public func photos(inPlace placeID: String, limit: Int) throws -> Listing<Photo> {
        try photos(inPlace: placeID, limit: limit, arriving: { _ in })
    }
}

/// Records from a source, each with its annotation (made once, as the listing arrives), with what had
/// to be skipped to keep the rest. The table, the local index and the pages read `entries`.
public struct Listing<Item: Sendable>: Sendable {
    /// The records with their annotations, in the source's order.
    public var entries: [Annotated<Item>]
    /// How many the source says exist in all (may exceed `entries.count`).
    public var total: Int?
    /// One line per record that could not be read, saying why.
    public var skipped: [String]

    /// Creates a listing.
    public init(entries: [Annotated<Item>], total: Int? = nil, skipped: [String] = []) {
        self.entries = entries
        self.total = total
        self.skipped = skipped
    }

    /// The records alone, in the source's order.
    public var items: [Item] { entries.map(\.record) }

    /// How many there are in all for a listing asked for at most `limit`: `total`, unless the listing
    /// ended short of the limit and of Flickr's last result, when it holds every record there is (a
    /// recorded answer's total counts the videos a listing of photos leaves out).
    public func total(askedFor limit: Int) -> Int? {
        entries.count < min(limit, FlickrSource.maximumResults) ? entries.count : total
    }
}
