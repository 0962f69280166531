// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// A record made an imported photo, ready for the catalog: shaped as a Flickr photo with its source id,
/// its square and medium at `LocalImageURL`s (made on demand from its image, as import's are from files),
/// placed, and with its time taken in seconds since 1970 (UTC: records carry no offset).
public struct RecordPhoto: Sendable {
    public var photo: Photo {
        didSet { encoded = nil }
    }
    public var place: LocalPlace
    public var taken: Double?
    public var image: PhotoRecord.Image

    /// The photo of `record`, in `place`.
    public init(_ record: PhotoRecord, place: LocalPlace) {
        let id = Self.photoID(sourceID: record.sourceID)
        var photo = Photo(
            id: id, title: record.title, dateTaken: record.taken, coordinate: record.coordinate,
            placeID: place.id)
        photo.sourceID = record.sourceID
        var images = photo.images
        let side = PhotoFileReader.squareSide
        images[.square] = ImageReference(url: LocalImageURL(photoID: id, size: .square).url, width: side, height: side)
        images[.medium] = ImageReference(url: LocalImageURL(photoID: id, size: .medium).url)
        photo.images = images
        self.photo = photo
        self.place = place
        self.taken = record.taken.flatMap(Self.instant)
        self.image = record.image
    }

    /// The photo as the catalog keeps it (JSON), when made already (`encode`, by the importer's reading
    /// thread); a photo changed since is made again.
    private(set) var encoded: Data?

    /// Makes the photo's JSON now, so that the catalog's writer need not.
    mutating func encode() throws {
        encoded = try JSONOutput.data(photo)
    }

    /// The photo as the catalog keeps it.
    func record() throws -> Data {
        try encoded ?? JSONOutput.data(photo)
    }

    /// A record's photo id: shaped as an imported photo's (`LocalPhotoID`), from the digest of its source
    /// id in its own domain, so the same id always makes the same photo and never meets a file's.
    static func photoID(sourceID: String) -> String {
        let domain = Array("photomap record\u{0}".utf8)
        return LocalPhotoID.prefix + SHA256.hex(domain + Array(sourceID.utf8)).prefix(LocalPhotoID.digits)
    }

    /// Seconds since 1970 of a checked "YYYY-MM-DD HH:MM:SS" taken as UTC (days from the civil date,
    /// as Howard Hinnant's `days_from_civil`; no formatter per record).
    static func instant(_ text: String) -> Double? {
        let digits = Array(text.utf8).map { Int($0) - 0x30 }
        guard digits.count == 19 else { return nil }
        func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + $1 } }
        let month = number(5..<7), day = number(8..<10)
        let year = number(0..<4) - (month <= 2 ? 1 : 0)
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + number(11..<13) * 3600 + number(14..<16) * 60 + number(17..<19))
    }
}

/// Where a records photo's image is, kept as the path of the photo's one row among the catalog's files:
/// NUL, "record", NUL, the photo's id, NUL, then "u" and a URL or "f" and an absolute path. No file's
/// path holds a NUL, so no import walks to it and none is pruned for it; the file row keeps the photo as
/// files keep theirs.
enum RecordSource {
    static let prefix: [UInt8] = [0] + Array("record".utf8) + [0]

    /// The row's path for the photo `photoID`'s image.
    static func path(photoID: String, image: PhotoRecord.Image) -> [UInt8] {
        let tail: [UInt8]
        switch image {
        case .url(let url): tail = [UInt8(ascii: "u")] + Array(url.utf8)
        case .file(let path): tail = [UInt8(ascii: "f")] + Array(path.utf8)
        }
        return prefix + Array(photoID.utf8) + [0] + tail
    }

    /// The image a row's path names; nil for a file's own path.
    static func image(of path: [UInt8]) -> PhotoRecord.Image? {
        guard path.starts(with: prefix), let end = path.dropFirst(prefix.count).firstIndex(of: 0),
            end + 1 < path.count
        else { return nil }
        let text = String(decoding: path[(end + 2)...], as: UTF8.self)
        switch path[end + 1] {
        case UInt8(ascii: "u"): return .url(text)
        case UInt8(ascii: "f"): return .file(text)
        default: return nil
        }
    }
}
