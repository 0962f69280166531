// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// `export --blur-locations KM`: every coordinate a site shows moved to the centre of its cell in a grid
/// of cells about KM kilometres a side, so a page tells the neighbourhood, not the doorstep.
public struct LocationBlur: Sendable {
    /// The cells' side in kilometres.
    public let kilometres: Double

    /// A grid of `kilometres` (more than 0).
    public init(kilometres: Double) {
        self.kilometres = kilometres
    }

    /// The centre of the cell holding `coordinate`: rows of `kilometres` of latitude; within a row,
    /// columns of `kilometres` at the row's own latitude.
    public func blurred(_ coordinate: Coordinate) -> Coordinate {
        let latitudeStep = min(kilometres / 111.195, 180)
        let row = ((coordinate.latitude + 90) / latitudeStep).rounded(.down)
        let latitude = min(-90 + (row + 0.5) * latitudeStep, 90)
        let longitudeStep = min(latitudeStep / max(cos(latitude * .pi / 180), 0.01), 360)
        let column = ((coordinate.longitude + 180) / longitudeStep).rounded(.down)
        let longitude = min(-180 + (column + 0.5) * longitudeStep, 180)
        return Coordinate(latitude: latitude, longitude: longitude) ?? coordinate
    }

    /// A record with its annotation, both coordinates blurred.
    public func blurred(_ entry: AnnotatedPhoto) -> AnnotatedPhoto {
        var entry = entry
        entry.record.coordinate = entry.record.coordinate.map(blurred)
        entry.annotation.coordinate = entry.annotation.coordinate.map(blurred)
        return entry
    }

    /// A place with its annotation, both coordinates blurred.
    public func blurred(_ entry: AnnotatedPlace) -> AnnotatedPlace {
        var entry = entry
        entry.record.coordinate = entry.record.coordinate.map(blurred)
        entry.annotation.coordinate = entry.annotation.coordinate.map(blurred)
        return entry
    }
}
