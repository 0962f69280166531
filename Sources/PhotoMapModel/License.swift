// SPDX-License-Identifier: Apache-2.0
/// A photo's licence, as flickr.photos.licenses.getInfo names it: Flickr's rules ask that it be
/// shown with the photo.
public struct License: Sendable {
    /// Flickr's licence id ("0" All Rights Reserved, "4" Attribution, …): what a photo record carries.
    public var id: String {
        get { storage.id }
        set { storage = Storage(id: newValue, name: name, url: url) }
    }
    /// Flickr's name for it; empty until the id is looked up in Flickr's list.
    public var name: String {
        get { storage.name }
        set { storage = Storage(id: id, name: newValue, url: url) }
    }
    /// The licence's deed on the web; nil when Flickr gives none (All Rights Reserved).
    public var url: String? {
        get { storage.url }
        set { storage = Storage(id: id, name: name, url: newValue) }
    }

    /// The values, in one shared box: the photos of a listing hold one of a handful of licences, each
    /// a reference to the box of Flickr's list rather than three strings of their own.
    private var storage: Storage

    private final class Storage: Sendable {
        let id: String, name: String, url: String?

        init(id: String, name: String, url: String?) {
            self.id = id
            self.name = name
            self.url = url
        }
    }

    /// A licence; an empty `url` (Flickr's for All Rights Reserved) is none.
    public init(id: String, name: String = "", url: String? = nil) {
        storage = Storage(id: id, name: name, url: url?.isEmpty == false ? url : nil)
    }

    /// The name to show: Flickr's, or the bare id when Flickr's list did not name it.
    public var displayName: String { name.isEmpty ? "Flickr licence \(id)" : name }

    /// The same licence named from Flickr's list (`byID`), when the list knows its id.
    public func named(from byID: [String: License]) -> License { byID[id] ?? self }
}

extension License: Hashable {
    /// Equal when id, name and URL are.
    public static func == (lhs: License, rhs: License) -> Bool {
        lhs.storage === rhs.storage || (lhs.id == rhs.id && lhs.name == rhs.name && lhs.url == rhs.url)
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
        hasher.combine(url)
    }
}

extension License: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, name, url
    }

    /// Reads `{"id": …, "name": …, "url": …}` (`url` optional).
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try values.decode(String.self, forKey: .id), name: try values.decode(String.self, forKey: .name),
            url: try values.decodeIfPresent(String.self, forKey: .url))
    }

    /// Writes the fields `init(from:)` reads.
    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(id, forKey: .id)
        try values.encode(name, forKey: .name)
        try values.encodeIfPresent(url, forKey: .url)
    }
}
