/// Where places and photos come from: the Flickr REST API or the embedded catalog.
public protocol PhotoSource: Sendable {
    /// The top places (localities), most photographed first.
    func topPlaces() throws -> Listing<Place>
    /// Up to `limit` photos taken in the place with this id.
    func photos(inPlace placeID: String, limit: Int) throws -> Listing<Photo>
}

/// Records from a source, with what had to be skipped to keep the rest.
public struct Listing<Item: Sendable>: Sendable {
    /// The records, in the source's order.
    public var items: [Item]
    /// How many the source says exist in all (may exceed `items.count`).
    public var total: Int?
    /// One line per record that could not be read, saying why.
    public var skipped: [String]

    /// Creates a listing.
    public init(items: [Item], total: Int? = nil, skipped: [String] = []) {
        self.items = items
        self.total = total
        self.skipped = skipped
    }
}
