// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// An imported photo's record, shaped as a Flickr photo so every listing, page and format shows it:
/// its EXIF fields, its images at `LocalImageURL`s, no owner id (so no link to Flickr).
enum LocalPhoto {
    /// The licence id imported photos carry: their Copyright text is its name.
    static let licenseID = "local"

    /// The record of the photo `id` read from the file at `path` (only its name, without the extension,
    /// is kept: as the title when EXIF gives none).
    static func record(
        id: String, fields: ExifFields, fileName path: [UInt8],
        mediumSize: (width: Int, height: Int)
    ) -> Photo {
        var photo = Photo(
            id: id, title: fields.title ?? title(fromFileName: path), ownerName: fields.artist ?? "",
            dateTaken: fields.dateTaken, coordinate: fields.coordinate,
            license: fields.copyright.map { License(id: licenseID, name: $0) })
        photo.locationSource = fields.coordinate == nil ? nil : .exif
        var images = photo.images
        let side = PhotoFileReader.squareSide
        images[.square] = ImageReference(url: LocalImageURL(photoID: id, size: .square).url, width: side, height: side)
        images[.medium] = ImageReference(
            url: LocalImageURL(photoID: id, size: .medium).url,
            width: mediumSize.width, height: mediumSize.height)
        photo.images = images
        return photo
    }

    /// "IMG_0042" of ".../IMG_0042.JPG": the last name, without its extension, as text.
    static func title(fromFileName path: [UInt8]) -> String {
        let name = path.split(separator: 0x2F).last.map(Array.init) ?? path
        let stem = name.lastIndex(of: 0x2E).map { $0 > 0 ? Array(name[..<$0]) : name } ?? name
        return ExifReader.cleaned(String(decoding: stem, as: UTF8.self)) ?? "Untitled"
    }
}
