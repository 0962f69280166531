/// A SHA-256 over a sequence of values, each told apart from the next: what a listing or a page was
/// made from, so that work already done for the same inputs is not done again.
public struct Fingerprint: Sendable {
    private var bytes: [UInt8] = []

    /// An empty fingerprint.
    public init() {}

    /// Adds a text (and a separator no text holds).
    public mutating func add(_ text: String) {
        bytes += text.utf8
        bytes.append(0x1F)
    }

    /// Adds an optional text: nil differs from every text, "" included.
    public mutating func add(_ text: String?) {
        guard let text else { return bytes += [0x1E, 0x1F] }
        add(text)
    }

    /// Adds a number, to the last bit.
    public mutating func add(_ number: Double?) {
        add(number.map { String($0.bitPattern) })
    }

    /// The digest of everything added, as 64 hex digits.
    public var hex: String { SHA256.hex(bytes) }
}

extension Photo {
    /// Adds every field of the record.
    public func fingerprint(into fingerprint: inout Fingerprint) {
        for text in [id, owner, pathAlias, secret, server, title, descriptionHTML,
                     ownerName, placeID] { fingerprint.add(text) }
        fingerprint.add(dateTaken)
        fingerprint.add(tags.joined(separator: " "))
        fingerprint.add(coordinate?.latitude)
        fingerprint.add(coordinate?.longitude)
        for size in PhotoSize.allCases {
            fingerprint.add(images[size]?.url)
            fingerprint.add(images[size]?.width.map(Double.init))
            fingerprint.add(images[size]?.height.map(Double.init))
        }
        fingerprint.add(license?.id)
        fingerprint.add(license?.name)
        fingerprint.add(license?.url)
    }
}

extension Place {
    /// Adds every field of the record.
    public func fingerprint(into fingerprint: inout Fingerprint) {
        for text in [id, woeid, fullName, shortName, url, type, timezone] { fingerprint.add(text) }
        fingerprint.add(coordinate?.latitude)
        fingerprint.add(coordinate?.longitude)
        fingerprint.add(typeID.map(Double.init))
        fingerprint.add(photoCount.map(Double.init))
    }
}
