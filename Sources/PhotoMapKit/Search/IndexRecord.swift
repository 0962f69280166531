// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// A record the local index holds: the annotation to show, and the words it is found by.
public struct IndexRecord: Sendable {
    public var annotation: Annotation
    /// Title, description, tags, names: what a query matches.
    public var text: String
    /// A photo's whole record, kept so that any server sharing the index can show the photo by its id.
    public var photo: Photo?

    /// A record for an annotation.
    public init(annotation: Annotation, text: String, photo: Photo? = nil) {
        self.annotation = annotation
        self.text = text
        self.photo = photo
    }

    /// The photo's record as the index keeps it (JSON); nil for places and landmarks.
    var encodedPhoto: Data? { photo.flatMap { try? JSONOutput.data($0) } }

    /// A photo, shown by its listing's annotation: found by its title, description and tags.
    public static func photo(_ entry: AnnotatedPhoto) -> IndexRecord {
        let photo = entry.record
        let words = [photo.title, PlainText.fromHTML(photo.descriptionHTML), photo.tags.joined(separator: " ")]
        return IndexRecord(annotation: entry.annotation, text: words.joined(separator: " "), photo: photo)
    }

    /// A place, shown by its listing's annotation: found by its full name.
    public static func place(_ entry: AnnotatedPlace) -> IndexRecord {
        IndexRecord(annotation: entry.annotation, text: entry.record.fullName)
    }

    /// A landmark: found by its name, street and city.
    public static func landmark(_ entry: GazetteerEntry) -> IndexRecord {
        var annotation = entry.annotation
        annotation.subtitle = entry.context
        return IndexRecord(
            annotation: annotation,
            text: [entry.name, entry.street, entry.context].joined(separator: " "))
    }
}
