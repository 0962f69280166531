// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// What photomap reads of a photo's EXIF block (CIPA DC-008): where and when it was taken, how to turn
/// it, and the words its owner gave it. A field that is missing or malformed is nil, and a malformed
/// one is named in `problems` (the import's report); the photo is kept either way.
public struct ExifFields: Sendable, Equatable {
    /// GPSLatitude/GPSLongitude with their N/S/E/W references; nil without a usable location.
    public var coordinate: Coordinate?
    /// DateTimeOriginal as Flickr writes dates ("2024-05-01 17:48:17"), the camera's local time.
    public var dateTaken: String?
    /// OffsetTimeOriginal in seconds east of UTC, when given.
    public var utcOffsetSeconds: Int?
    /// DateTimeOriginal with its SubSecTimeOriginal and OffsetTimeOriginal, as written: what a track
    /// locates the photo by (DateTime, which says when the file was last changed, is not used for that).
    public var clock: PhotoClock?
    /// Make and Model: the camera.
    public var make: String?
    public var model: String?
    /// Orientation 1–8 (1 when missing or out of range).
    public var orientation = 1
    /// ImageDescription, else XPTitle.
    public var title: String?
    /// Artist: the owner.
    public var artist: String?
    /// Copyright: the licence text.
    public var copyright: String?
    /// One line per field left out, saying why.
    public var problems: [String] = []

    /// No fields.
    public init() {}
}
