// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// A source that finds trips in its photos (the imported photos': `LocalSource`).
public protocol TripDescribing: Sendable {
    /// The trips, and the photos of them a viewer may see.
    func tripAlbum() throws -> TripAlbum
    /// The places the viewer's located photos were taken in (`VisitedPlace.tree`).
    func visitedPlaces() throws -> [VisitedPlace]
}

/// The trips found in the photos as their owner sees them (a fenced photo at home makes a home day),
/// and the photos pages may show of them: those the viewer's listing holds, as it holds them (a fenced
/// photo without its location). What pages draw of a trip stops `TripFormats.homeMargin` before home and
/// outside every fence; home itself is never named or drawn.
public struct TripAlbum: Sendable {
    /// The trips, newest first.
    public var trips: [Trip]
    /// Home, used for cutting routes only; nil when it could not be found (then there are no trips).
    public var home: Coordinate?
    /// The fences routes stop outside.
    public var fences: [Geofence]
    /// The photos the viewer may see, by id.
    public var shown: [String: AnnotatedPhoto]
    /// Each trip photo's trip id.
    let tripOfPhoto: [String: String]

    /// An album of `trips`, their photos shown as `shown` holds them.
    public init(trips: [Trip], home: Coordinate?, fences: [Geofence], shown: [String: AnnotatedPhoto]) {
        self.home = home
        self.fences = fences
        self.shown = shown
        // A trip the viewer sees no photo of is not theirs to see.
        self.trips = trips.filter { trip in trip.photos.contains { shown[$0.id] != nil } }
        var tripOfPhoto: [String: String] = [:]
        for trip in self.trips { for photo in trip.photos { tripOfPhoto[photo.id] = trip.id } }
        self.tripOfPhoto = tripOfPhoto
    }

    /// The trip whose id is `id`, or nil.
    public func trip(_ id: String) -> Trip? { trips.first { $0.id == id } }

    /// The trip a photo belongs to, or nil.
    public func trip(ofPhoto id: String) -> Trip? {
        tripOfPhoto[id].flatMap { trip($0) }
    }

    /// A trip's photos the viewer may see, in the order they were taken.
    public func photos(of trip: Trip) -> [AnnotatedPhoto] {
        trip.photos.compactMap { shown[$0.id] }
    }

    /// `lines` of a trip as pages draw them: cut before home and by the fences, simplified; nil for none.
    public func drawing(_ lines: [[Coordinate]]) -> TrackDrawing? {
        guard let home else { return nil }
        return Trip.drawing(lines, home: home, margin: TripFormats.homeMargin, fences: fences)
    }
}
