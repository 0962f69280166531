// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A photo's record from flickr.photos.search with the listing extras.
public struct Photo: Sendable, Hashable {
    /// Flickr's photo id.
    public var id: String { didSet { keepImages(id: oldValue, server: server, secret: secret) } }
    /// The owner's NSID, e.g. "12345678@N05".
    public var owner: String
    /// The owner's chosen path alias (Flickr's `pathalias`), used in their photo pages' URLs; empty without one.
    public var pathAlias: String
    /// The secret part of the image URLs.
    public var secret: String { didSet { keepImages(id: id, server: server, secret: oldValue) } }
    /// The image server part of the image URLs.
    public var server: String { didSet { keepImages(id: id, server: oldValue, secret: secret) } }
    /// The title exactly as Flickr sends it (may be empty).
    public var title: String
    /// The description as Flickr sends it: HTML that may hold links and entities.
    public var descriptionHTML: String
    /// The owner's display name.
    public var ownerName: String
    /// When the photo was taken, as Flickr formats it ("2011-04-15 17:48:17"); nil when Flickr does not know.
    public var dateTaken: String?
    /// The photo's tags.
    public var tags: [String]
    /// Where it was taken; nil without geo.
    public var coordinate: Coordinate?
    /// The place it belongs to, when reported.
    public var placeID: String
    /// The images that came with the record, by size (their URLs exactly as sent).
    public var images: PhotoImages {
        get { PhotoImages(id: id, server: server, secret: secret, stored: storedImages) }
        set { storedImages = newValue.anchored(id: id, server: server, secret: secret).stored }
    }
    /// The images without the id, server and secret their URLs are made from, which the photo holds.
    private var storedImages: PhotoImages.Stored
    /// Its licence (Flickr's `license` extra), named from Flickr's list of licences; nil when not reported.
    public var license: License?
    /// Where an imported photo's location came from (its EXIF, a track); nil for Flickr's and unlocated ones.
    public var locationSource: LocationSource?
    /// An estimated location's: the seconds from this photo's time to that of the photo it was taken from
    /// (negative when that one was taken earlier); nil for other locations.
    public var estimateOffset: Int?
    /// A photo read from another catalog's records (`import --records`): its id there; nil for others.
    public var sourceID: String?

    /// Creates a photo record.
    public init(
        id: String, owner: String = "", pathAlias: String = "", secret: String = "", server: String = "",
        title: String = "", descriptionHTML: String = "", ownerName: String = "", dateTaken: String? = nil,
        tags: [String] = [], coordinate: Coordinate? = nil, placeID: String = "",
        images: [PhotoSize: ImageReference] = [:], license: License? = nil
    ) {
        self.id = id
        self.owner = owner
        self.pathAlias = pathAlias
        self.secret = secret
        self.server = server
        self.title = title
        self.descriptionHTML = descriptionHTML
        self.ownerName = ownerName
        self.dateTaken = dateTaken
        self.tags = tags
        self.coordinate = coordinate
        self.placeID = placeID
        var held = PhotoImages(id: id, server: server, secret: secret)
        for size in PhotoSize.allCases { held[size] = images[size] }
        storedImages = held.stored
        self.license = license
    }

    /// Keeps the images' URLs as they were made from `id`, `server` and `secret`, the parts before one
    /// of them changed (the photo holds its templated images without them).
    private mutating func keepImages(id: String, server: String, secret: String) {
        images = PhotoImages(id: id, server: server, secret: secret, stored: storedImages)
    }

    /// Its page on Flickr, `https://www.flickr.com/photos/{pathalias or owner}/{id}`, which Flickr's rules
    /// ask every shown photo to link to; nil without an owner or an id.
    public var flickrPageURL: String? { Self.flickrPageURL(user: flickrUser, id: id) }

    /// Who the photo's page on Flickr is under: the owner's path alias, else the owner's NSID.
    package var flickrUser: String { pathAlias.isEmpty ? owner : pathAlias }

    /// The page on Flickr of photo `id` of `user`, as `flickrPageURL` says.
    static func flickrPageURL(user: String, id: String) -> String? {
        guard !user.isEmpty, !id.isEmpty,
            let userPart = Self.pathSegment(user), let idPart = Self.pathSegment(id)
        else { return nil }
        return "https://www.flickr.com/photos/\(userPart)/\(idPart)"
    }

    /// `text` percent-encoded as one URL path segment; ids and NSIDs (letters, digits, "@", "-", "_")
    /// need none, and skip Foundation's encoder, which every photo of a listing would otherwise pass.
    private static func pathSegment(_ text: String) -> String? {
        let plain = text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
        return plain ? text : text.addingPercentEncoding(withAllowedCharacters: pathComponent)
    }

    /// Characters a URL path segment keeps as they are (no "/", so a value cannot add a segment).
    private static let pathComponent = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/;"))
}

/// One image of a photo at a given size.
public struct ImageReference: Sendable, Hashable, Codable {
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

extension Photo: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, owner, pathAlias, secret, server, title, descriptionHTML, ownerName, dateTaken, tags
        case coordinate, placeID, images, license, locationSource, estimateOffset, sourceID
    }

    /// Reads a photo as `encode(to:)` writes it.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) throws -> String { try values.decode(String.self, forKey: key) }
        self.init(
            id: try text(.id), owner: try text(.owner), pathAlias: try text(.pathAlias), secret: try text(.secret),
            server: try text(.server), title: try text(.title), descriptionHTML: try text(.descriptionHTML),
            ownerName: try text(.ownerName),
            dateTaken: try values.decodeIfPresent(String.self, forKey: .dateTaken),
            tags: try values.decode([String].self, forKey: .tags),
            coordinate: try values.decodeIfPresent(Coordinate.self, forKey: .coordinate),
            placeID: try text(.placeID), license: try values.decodeIfPresent(License.self, forKey: .license))
        images = try values.decode(PhotoImages.self, forKey: .images)
        locationSource = try values.decodeIfPresent(LocationSource.self, forKey: .locationSource)
        estimateOffset = try values.decodeIfPresent(Int.self, forKey: .estimateOffset)
        sourceID = try values.decodeIfPresent(String.self, forKey: .sourceID)
    }

    /// Writes every field, the images as `{"sq": {"url": …, "width": …, "height": …}, …}`.
    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        for (key, text) in [
            (CodingKeys.id, id), (.owner, owner), (.pathAlias, pathAlias), (.secret, secret),
            (.server, server), (.title, title), (.descriptionHTML, descriptionHTML),
            (.ownerName, ownerName), (.placeID, placeID),
        ] {
            try values.encode(text, forKey: key)
        }
        try values.encodeIfPresent(dateTaken, forKey: .dateTaken)
        try values.encode(tags, forKey: .tags)
        try values.encodeIfPresent(coordinate, forKey: .coordinate)
        try values.encode(images, forKey: .images)
        try values.encodeIfPresent(license, forKey: .license)
        try values.encodeIfPresent(locationSource, forKey: .locationSource)
        try values.encodeIfPresent(estimateOffset, forKey: .estimateOffset)
        try values.encodeIfPresent(sourceID, forKey: .sourceID)
    }
}
