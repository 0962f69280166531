/// A photo's licence, as flickr.photos.licenses.getInfo names it: Flickr's rules ask that it be
/// shown with the photo.
public struct License: Sendable, Hashable, Codable {
    /// Flickr's licence id ("0" All Rights Reserved, "4" Attribution, …): what a photo record carries.
    public var id: String
    /// Flickr's name for it; empty until the id is looked up in Flickr's list.
    public var name: String
    /// The licence's deed on the web; nil when Flickr gives none (All Rights Reserved).
    public var url: String?

    /// A licence; an empty `url` (Flickr's for All Rights Reserved) is none.
    public init(id: String, name: String = "", url: String? = nil) {
        self.id = id
        self.name = name
        self.url = url?.isEmpty == false ? url : nil
    }

    /// The name to show: Flickr's, or the bare id when Flickr's list did not name it.
    public var displayName: String { name.isEmpty ? "Flickr licence \(id)" : name }

    /// The same licence named from Flickr's list (`byID`), when the list knows its id.
    public func named(from byID: [String: License]) -> License { byID[id] ?? self }
}
