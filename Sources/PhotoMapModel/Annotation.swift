// SPDX-License-Identifier: Apache-2.0
/// What a map shows for one record: MapKit's model of a coordinate with a title and a subtitle,
/// plus what a callout and a listing need.
public struct Annotation: Sendable {
    /// What the annotation stands for.
    public enum Kind: String, Sendable, Codable {
        case place, photo, location
    }

    /// What it stands for.
    public var kind: Kind
    /// The record's id (place_id or photo id).
    public var id: String
    /// Plain text, never empty.
    public var title: String
    /// Plain text, may be empty.
    public var subtitle: String
    /// Where it goes on a map; nil for records without a valid coordinate.
    public var coordinate: Coordinate?
    /// Places: the number of photos taken there.
    public var photoCount: Int?
    /// Photos: the 75×75 square.
    public var thumbnailURL: String? {
        get { images[.square]?.url }
        set { images[.square] = newValue.map { ImageReference(url: $0) } }
    }
    /// Photos: the medium image.
    public var imageURL: String? {
        get { images[.medium]?.url }
        set { images[.medium] = newValue.map { ImageReference(url: $0) } }
    }
    /// Photos: the owner's display name.
    public var owner: String?
    /// Photos: when it was taken; nil when unknown.
    public var dateTaken: String?
    /// Photos: the photo's page on Flickr, which every page showing the photo links to.
    public var pageURL: String? {
        get { flickrUser.map { Photo.flickrPageURL(user: $0, id: id) } ?? storedPageURL }
        set { (flickrUser, storedPageURL) = (nil, newValue) }
    }
    /// Photos: the photo's licence.
    public var license: License?
    /// Photos: where an imported photo's location came from, when not its own GPS ("located from a track").
    public var locationNote: String?

    /// The images whose URLs `thumbnailURL` and `imageURL` give: a listing's annotations make them from
    /// the record's compact images rather than holding copies of the URLs.
    private var images: PhotoImages
    /// A photo's owner (path alias or NSID) its `pageURL` is made from; nil when the URL is held as is.
    private var flickrUser: String?
    /// The `pageURL` given, when it is not made from `flickrUser`.
    private var storedPageURL: String?

    /// Creates an annotation.
    public init(
        kind: Kind, id: String, title: String, subtitle: String, coordinate: Coordinate?,
        photoCount: Int? = nil, thumbnailURL: String? = nil, imageURL: String? = nil,
        owner: String? = nil, dateTaken: String? = nil, pageURL: String? = nil, license: License? = nil
    ) {
        self.kind = kind
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.coordinate = coordinate
        self.photoCount = photoCount
        self.images = [:]
        self.owner = owner
        self.dateTaken = dateTaken
        self.storedPageURL = pageURL
        self.license = license
        self.thumbnailURL = thumbnailURL
        self.imageURL = imageURL
    }

    /// A photo's annotation showing `images` and the page on Flickr of photo `id` of `flickrUser`.
    package init(
        photo id: String, title: String, subtitle: String, coordinate: Coordinate?, images: PhotoImages,
        owner: String, dateTaken: String?, flickrUser: String, license: License?, locationNote: String?
    ) {
        self.init(
            kind: .photo, id: id, title: title, subtitle: subtitle, coordinate: coordinate, owner: owner,
            dateTaken: dateTaken, license: license)
        self.images = images
        self.flickrUser = flickrUser
        self.locationNote = locationNote
    }
}

extension Annotation: Hashable {
    /// Equal when everything shown is equal, however the URLs are held.
    public static func == (lhs: Annotation, rhs: Annotation) -> Bool {
        lhs.kind == rhs.kind && lhs.id == rhs.id && lhs.title == rhs.title && lhs.subtitle == rhs.subtitle
            && lhs.coordinate == rhs.coordinate && lhs.photoCount == rhs.photoCount
            && lhs.thumbnailURL == rhs.thumbnailURL && lhs.imageURL == rhs.imageURL && lhs.owner == rhs.owner
            && lhs.dateTaken == rhs.dateTaken && lhs.pageURL == rhs.pageURL && lhs.license == rhs.license
            && lhs.locationNote == rhs.locationNote
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(id)
        hasher.combine(title)
        hasher.combine(subtitle)
        hasher.combine(coordinate)
        hasher.combine(photoCount)
        hasher.combine(thumbnailURL)
        hasher.combine(imageURL)
        hasher.combine(owner)
        hasher.combine(dateTaken)
        hasher.combine(pageURL)
        hasher.combine(license)
        hasher.combine(locationNote)
    }
}
