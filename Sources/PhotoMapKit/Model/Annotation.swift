/// What a map shows for one record: MapKit's model of a coordinate with a title and a subtitle,
/// plus what a callout and a listing need.
public struct Annotation: Sendable, Hashable {
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
    public var thumbnailURL: String?
    /// Photos: the medium image.
    public var imageURL: String?
    /// Photos: the owner's display name.
    public var owner: String?
    /// Photos: when it was taken; nil when unknown.
    public var dateTaken: String?
    /// Photos: the photo's page on Flickr, which every page showing the photo links to.
    public var pageURL: String?
    /// Photos: the photo's licence.
    public var license: License?

    /// Creates an annotation.
    public init(kind: Kind, id: String, title: String, subtitle: String, coordinate: Coordinate?,
                photoCount: Int? = nil, thumbnailURL: String? = nil, imageURL: String? = nil,
                owner: String? = nil, dateTaken: String? = nil, pageURL: String? = nil, license: License? = nil) {
        self.kind = kind
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.coordinate = coordinate
        self.photoCount = photoCount
        self.thumbnailURL = thumbnailURL
        self.imageURL = imageURL
        self.owner = owner
        self.dateTaken = dateTaken
        self.pageURL = pageURL
        self.license = license
    }
}
