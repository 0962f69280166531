// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// A record with its annotation, made once when its listing arrives: the table, the local index and
/// the pages all show this annotation, and none makes another from the record.
public struct Annotated<Record: Sendable>: Sendable {
    /// The record, as the source sent it (what images, page digests and photo pages read).
    public var record: Record
    /// What a table, a map or a search result shows for it.
    public var annotation: Annotation

    /// Pairs a record with its annotation.
    public init(_ record: Record, _ annotation: Annotation) {
        self.record = record
        self.annotation = annotation
    }
}

extension Annotated: Equatable where Record: Equatable {}

/// A photo with its annotation.
public typealias AnnotatedPhoto = Annotated<Photo>
/// A place with its annotation.
public typealias AnnotatedPlace = Annotated<Place>

extension AnnotationAdapter {
    /// Each place with its annotation.
    public func annotated(_ places: [Place]) -> [AnnotatedPlace] {
        places.map { Annotated($0, annotation(for: $0)) }
    }

    /// Each photo with its annotation.
    public func annotated(_ photos: [Photo]) -> [AnnotatedPhoto] {
        photos.map(annotated)
    }

    /// A photo with its annotation.
    public func annotated(_ photo: Photo) -> AnnotatedPhoto {
        Annotated(photo, annotation(for: photo))
    }
}
