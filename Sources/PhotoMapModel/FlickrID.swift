// SPDX-License-Identifier: Apache-2.0
/// The shapes of Flickr's ids, checked where an id comes from outside (a served URL) before it is looked
/// up, or sent to Flickr.
///
/// Flickr's documentation shows place ids of letters and digits with `.` and `_` among them
/// ("4hLQygSaBJ92", ".aaSwYSbApnq6seyGw", "CrZUvXebApjI0.72", flickr.places.getInfo and
/// placesForBoundingBox; the embedded catalog's hold `_`), and photo ids of digits ("2733",
/// flickr.photos.getInfo; the embedded catalog's have 11).
public enum FlickrID {
    /// The longest id accepted, with room to spare: the documented place ids are 12 to 18 characters,
    /// the catalog's 15 to 20, its photo ids 11 digits.
    public static let maximumLength = 32

    /// Whether `text` has the shape of a Flickr place id.
    public static func isPlaceID(_ text: String) -> Bool {
        (1...maximumLength).contains(text.utf8.count)
            && text.utf8.allSatisfy { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") }
    }

    /// Whether `text` has the shape of a Flickr photo id.
    public static func isPhotoID(_ text: String) -> Bool {
        (1...maximumLength).contains(text.utf8.count) && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// The shape of a place id, as an error says it.
    public static let placeIDShape = "1 to \(maximumLength) letters, digits, '.' or '_'"
    /// The rule for a place id, as an error says it.
    public static let placeIDRule = "a place id is " + placeIDShape
    /// The rule for a photo id, as an error says it.
    public static let photoIDRule = "a photo id is 1 to \(maximumLength) digits"

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
