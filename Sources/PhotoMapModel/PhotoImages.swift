// SPDX-License-Identifier: Apache-2.0
/// A photo's images by size, held compactly: a listing holds 100,000 of them. An image whose URL
/// follows Flickr's template (misc.urls: `{host}/{server}/{id}_{secret}{suffix}.{jpg|png|gif}`, one
/// host for all the photo's templated images) keeps a few bytes and its URL is made again when asked;
/// any other image keeps its URL exactly as sent.
public struct PhotoImages: Sendable, ExpressibleByDictionaryLiteral {
    /// The photo's parts templated URLs are made from.
    private var id = "", server = "", secret = ""
    /// The images themselves: what a `Photo` holds (its own id, server and secret are the rest).
    private(set) var stored = Stored()

    /// A photo's images without the parts their URLs are made from.
    struct Stored: Sendable, Hashable {
        /// The templated URLs' host: a shared string (Flickr's or a mirror's), not a copy per photo.
        fileprivate var host = ""
        fileprivate var square = Slot(), largeSquare = Slot(), medium = Slot()
        /// Images whose URL does not follow the template or whose size is not a 32-bit number; nil when none.
        fileprivate var others: [PhotoSize: ImageReference]?
    }

    /// One size's image when it follows the template.
    fileprivate struct Slot: Hashable {
        /// 0 for no templated image, else the extension's index in `extensions` plus one.
        var format: UInt8 = 0
        /// The suffix's one character (`_s` → "s"), 0 for none.
        var suffix: UInt8 = 0
        /// The width and height; `Int32.min` for not reported.
        var width = Int32.min, height = Int32.min
    }

    private static let extensions = ["jpg", "png", "gif"]

    /// No images, with URLs templated on the photo `id` of `server` with `secret`.
    public init(id: String = "", server: String = "", secret: String = "") {
        self.id = id
        self.server = server
        self.secret = secret
    }

    /// The images of a dictionary literal (templated on nothing: each URL is kept as given).
    public init(dictionaryLiteral elements: (PhotoSize, ImageReference)...) {
        for (size, image) in elements { self[size] = image }
    }

    /// The images `stored` of the photo `id` of `server` with `secret`.
    init(id: String, server: String, secret: String, stored: Stored) {
        self.init(id: id, server: server, secret: secret)
        self.stored = stored
    }

    /// The same images templated on the photo `id` of `server` with `secret` where their URLs allow,
    /// each size in turn.
    func anchored(id: String, server: String, secret: String) -> PhotoImages {
        if id == self.id, server == self.server, secret == self.secret { return self }
        var anchored = PhotoImages(id: id, server: server, secret: secret)
        for size in PhotoSize.allCases { anchored[size] = self[size] }
        return anchored
    }

    /// The image of `size`, if the photo has one.
    public subscript(size: PhotoSize) -> ImageReference? {
        get {
            let slot = self[slot: size]
            guard slot.format > 0 else { return stored.others?[size] }
            return ImageReference(
                url: url(of: slot), width: slot.width == .min ? nil : Int(slot.width),
                height: slot.height == .min ? nil : Int(slot.height))
        }
        set {
            self[slot: size] = Slot()
            stored.others?[size] = nil
            if stored.others?.isEmpty == true { stored.others = nil }
            guard let image = newValue else { return }
            if var slot = templated(image) {
                slot.width = image.width.map(Int32.init) ?? .min
                slot.height = image.height.map(Int32.init) ?? .min
                self[slot: size] = slot
            } else {
                stored.others = stored.others ?? [:]
                stored.others?[size] = image
            }
        }
    }

    /// Whether it holds no image.
    public var isEmpty: Bool {
        PhotoSize.allCases.allSatisfy { self[slot: $0].format == 0 && stored.others?[$0] == nil }
    }

    /// The images on Flickr's static host moved to `host` (a local mirror of them).
    func rehosted(from flickr: ImageHost, to host: ImageHost) -> PhotoImages {
        var images = self
        if hasTemplated, stored.host == flickr.base {
            images.stored.host = host.base
        } else if hasTemplated, stored.host.hasPrefix(flickr.base + "/") {
            images.stored.host = host.base + stored.host.dropFirst(flickr.base.count)
        }
        for (size, image) in stored.others ?? [:] where image.url.hasPrefix(flickr.base + "/") {
            images.stored.others?[size]?.url = host.base + image.url.dropFirst(flickr.base.count)
        }
        return images
    }

    /// Adds `size`'s image on `host` in the template's `.jpg` form (misc.urls) when the photo has none of
    /// that size and knows its server and secret: the URL pages show for a record that came without it.
    package mutating func addTemplated(_ size: PhotoSize, on host: ImageHost) {
        guard self[size] == nil, !server.isEmpty, !secret.isEmpty else { return }
        let slot = Slot(format: 1, suffix: size.urlSuffix.utf8.last ?? 0)
        if !hasTemplated || stored.host == host.base {
            stored.host = host.base
            self[slot: size] = slot
        } else {
            self[size] = ImageReference(url: url(of: slot, host: host.base))
        }
    }

    private var hasTemplated: Bool {
        stored.square.format > 0 || stored.largeSquare.format > 0 || stored.medium.format > 0
    }

    private subscript(slot size: PhotoSize) -> Slot {
        get {
            switch size {
            case .square: stored.square
            case .largeSquare: stored.largeSquare
            case .medium: stored.medium
            }
        }
        set {
            switch size {
            case .square: stored.square = newValue
            case .largeSquare: stored.largeSquare = newValue
            case .medium: stored.medium = newValue
            }
        }
    }

    private func url(of slot: Slot, host: String? = nil) -> String {
        var url = host ?? stored.host
        url.reserveCapacity(url.utf8.count + server.utf8.count + id.utf8.count + secret.utf8.count + 10)
        url += "/"
        url += server
        url += "/"
        url += id
        url += "_"
        url += secret
        if slot.suffix != 0 {
            url += "_"
            url.unicodeScalars.append(Unicode.Scalar(slot.suffix))
        }
        url += "."
        url += Self.extensions[Int(slot.format) - 1]
        return url
    }

    /// The slot for `image` when its URL follows the template on this photo's host (any host when none
    /// is held yet, which it then becomes) and its size fits; nil otherwise.
    private mutating func templated(_ image: ImageReference) -> Slot? {
        guard !server.isEmpty, !secret.isEmpty, !id.isEmpty,
            image.width.map({ $0 > Int32.min && $0 <= Int32.max }) ?? true,
            image.height.map({ $0 > Int32.min && $0 <= Int32.max }) ?? true
        else { return nil }
        var url = image.url
        guard let (slot, hostEnd) = url.withUTF8({ bytes in matchTemplate(bytes) }) else { return nil }
        let hostBytes = url.utf8.prefix(hostEnd)
        if hasTemplated {
            guard stored.host.utf8.elementsEqual(hostBytes) else { return nil }
        } else {
            // Flickr's host is one shared string; any other is kept once per photo.
            stored.host =
                ImageHost.flickr.base.utf8.elementsEqual(hostBytes)
                ? ImageHost.flickr.base : String(decoding: hostBytes, as: UTF8.self)
        }
        return slot
    }

    /// The slot and the host's length when `url` ends in `/{server}/{id}_{secret}{suffix}.{ext}`.
    private func matchTemplate(_ url: UnsafeBufferPointer<UInt8>) -> (Slot, Int)? {
        var end = url.count
        /// Steps back over `piece` when the URL has it just before `end`.
        func back(_ piece: String) -> Bool {
            let count = piece.utf8.count
            guard end >= count, piece.utf8.elementsEqual(url[(end - count)..<end]) else { return false }
            end -= count
            return true
        }
        guard end > 4, url[end - 4] == UInt8(ascii: "."),
            let format = Self.extensions.firstIndex(where: { $0.utf8.elementsEqual(url[(end - 3)..<end]) })
        else { return nil }
        end -= 4
        var slot = Slot(format: UInt8(format + 1))
        let beforeSuffix = end
        if !back(secret) {
            // `_x` before the extension: a single letter or digit.
            guard end > 2, url[end - 2] == UInt8(ascii: "_"), Self.isSuffix(url[end - 1]) else { return nil }
            slot.suffix = url[end - 1]
            end = beforeSuffix - 2
            guard back(secret) else { return nil }
        }
        guard back("_"), back(id), back("/"), back(server), back("/") else { return nil }
        return (slot, end)
    }

    private static func isSuffix(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

extension PhotoImages: Hashable {
    /// Equal when they hold the same images, however each is held.
    public static func == (lhs: PhotoImages, rhs: PhotoImages) -> Bool {
        PhotoSize.allCases.allSatisfy { lhs[$0] == rhs[$0] }
    }

    /// Hashes the images, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        for size in PhotoSize.allCases { hasher.combine(self[size]) }
    }
}

extension PhotoImages: Codable {
    /// Reads `{"sq": {"url": …}, …}`, as a `[PhotoSize: ImageReference]` is written.
    public init(from decoder: any Decoder) throws {
        self.init(id: "")
        for (size, image) in try [PhotoSize: ImageReference](from: decoder) { self[size] = image }
    }

    /// Writes the images as a `[PhotoSize: ImageReference]`.
    public func encode(to encoder: any Encoder) throws {
        var images: [PhotoSize: ImageReference] = [:]
        for size in PhotoSize.allCases { images[size] = self[size] }
        try images.encode(to: encoder)
    }
}
