// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// Turns places and photos into map annotations: where each title and subtitle is decided.
public struct AnnotationAdapter: Sendable {
    /// Builds URLs for photos that came without `url_*` extras.
    public var imageHost: ImageHost

    /// Creates an adapter.
    public init(imageHost: ImageHost = .flickr) {
        self.imageHost = imageHost
    }

    /// "Paris, Ile-de-France, France" → title "Paris", subtitle "Ile-de-France, France".
    public func annotation(for place: Place) -> Annotation {
        let (head, rest) = Self.splitAtFirstComma(place.fullName.isEmpty ? place.shortName : place.fullName)
        return Annotation(
            kind: .place, id: place.id, title: head.isEmpty ? place.id : head, subtitle: rest,
            coordinate: place.coordinate, photoCount: place.photoCount, pageURL: place.flickrPageURL)
    }

    /// Title: the title trimmed, else the description's text, else "Unknown".
    /// Subtitle: the first words of the description, empty when the description became the title.
    public func annotation(for photo: Photo) -> Annotation {
        let title = photo.title.trimming(.whitespacesAndNewlines)
        let description = PlainText.fromHTML(photo.descriptionHTML)
        let shownTitle: String
        let subtitle: String
        if !title.isEmpty {
            shownTitle = title
            subtitle = PlainText.summary(description)
        } else if !description.isEmpty {
            shownTitle = PlainText.summary(description)
            subtitle = ""
        } else {
            shownTitle = "Unknown"
            subtitle = ""
        }
        var images = photo.images
        // The record's own URL for each size shown, else one built on the image host.
        images.addTemplated(.square, on: imageHost)
        images.addTemplated(.medium, on: imageHost)
        return Annotation(
            photo: photo.id, title: shownTitle, subtitle: subtitle, coordinate: photo.coordinate,
            images: images, owner: photo.ownerName.isEmpty ? photo.owner : photo.ownerName,
            dateTaken: photo.dateTaken, flickrUser: photo.flickrUser, license: photo.license,
            locationNote: photo.locationNote)
    }

    private static func splitAtFirstComma(_ name: String) -> (String, String) {
        guard let comma = name.firstIndex(of: ",") else {
            return (name.trimming(.whitespacesAndNewlines), "")
        }
        return (
            name[..<comma].trimming(.whitespacesAndNewlines),
            name[name.index(after: comma)...].trimming(.whitespacesAndNewlines)
        )
    }
}
