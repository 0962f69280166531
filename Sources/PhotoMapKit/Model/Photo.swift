/// A photo's record from flickr.photos.search with the listing extras.
public struct Photo: Sendable, Hashable {
    /// Flickr's photo id.
    public var id: String
    /// The owner's NSID, e.g. "12345678@N05".
    public var owner: String
    /// The secret part of the image URLs.
    public var secret: String
    /// The image server part of the image URLs.
    public var server: String
    /// The title exactly as Flickr sends it (may be empty).
    public var title: String
    /// The description as Flickr sends it: HTML that may hold links and entities.
    public var descriptionHTML: String
    /// The owner's display name.
    public var ownerName: String
    /// When the photo was taken, as Flickr formats it ("2011-04-15 17:48:17").
    public var dateTaken: String
    /// The photo's tags.
    public var tags: [String]
    /// Where it was taken; nil without geo.
    public var coordinate: Coordinate?
    /// The place it belongs to, when reported.
    public var placeID: String
    /// The image URLs that came with the record, by size.
    public var images: [PhotoSize: ImageReference]

    /// Creates a photo record.
    public init(id: String, owner: String = "", secret: String = "", server: String = "", title: String = "",
                descriptionHTML: String = "", ownerName: String = "", dateTaken: String = "", tags: [String] = [],
                coordinate: Coordinate? = nil, placeID: String = "", images: [PhotoSize: ImageReference] = [:]) {
        self.id = id
        self.owner = owner
        self.secret = secret
        self.server = server
        self.title = title
        self.descriptionHTML = descriptionHTML
        self.ownerName = ownerName
        self.dateTaken = dateTaken
        self.tags = tags
        self.coordinate = coordinate
        self.placeID = placeID
        self.images = images
    }
}

/// One image of a photo at a given size.
public struct ImageReference: Sendable, Hashable {
    /// Where the image is served.
    public var url: String
    /// Its width in pixels, when reported.
    public var width: Int?
    /// Its height in pixels, when reported.
    public var height: Int?

    /// Creates an image reference.
    public init(url: String, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.width = width
        self.height = height
    }
}
