// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// What can go wrong finding a location.
public enum LocationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// No place, landmark or address matched.
    case nothingFound(query: String)
    /// "lat,lon" with a latitude beyond ±90 or a longitude beyond ±180.
    case coordinateOutOfRange(String)
    /// The offline gazetteer's files are not where photomap looked.
    case gazetteerMissing(String)
    /// A gazetteer file (cities, regions, the catalog's landmarks) is there but cannot be read.
    case gazetteerUnreadable(path: String, reason: String)

    /// What failed, with what.
    public var description: String {
        switch self {
        case let .nothingFound(query): return "no location found for \"\(query)\""
        case let .coordinateOutOfRange(text): return "\(text): latitude must be within ±90 and longitude within ±180"
        case let .gazetteerMissing(what): return "cannot find the gazetteer \(what)"
        case let .gazetteerUnreadable(path, reason): return "cannot read the gazetteer's \(path): \(reason)"
        }
    }
}

/// Geocoding as `find` and the served pages do it: the offline gazetteer's entries (GeoNames cities,
/// the catalog's places and landmarks) and, when a place finder is given (Flickr online), its
/// candidates too, ranked under one rule. Flickr knows places, not landmarks; the gazetteer knows
/// landmarks; together they answer both.
public struct LocationFinder: Sendable {
    private let loaded: LoadedOnce<any GazetteerLookup>
    private let places: (any PlaceFinding)?

    /// A finder over the gazetteer `load` gives (its index, or the parsed files; called on first use,
    /// until it succeeds) and, if given, `places`.
    public init(gazetteer load: @escaping @Sendable () throws -> any GazetteerLookup, places: (any PlaceFinding)?) {
        loaded = LoadedOnce(load)
        self.places = places
    }

    /// The offline gazetteer, opened on first use.
    public func gazetteer() throws -> any GazetteerLookup {
        try loaded.value()
    }

    /// Locations for `query`, best first, favouring those near `near`.
    public func find(_ query: String, near: Coordinate?, limit: Int) throws -> [Geocoder.Result] {
        let candidates = try places?.findPlaces(query).items.compactMap(GazetteerEntry.init(place:)) ?? []
        return try Geocoder(gazetteer: try gazetteer()).find(query, near: near, limit: limit, candidates: candidates)
    }

    /// A point named by `text`: a "lat,lon" pair, or the best location for a name.
    public func point(_ text: String) throws -> Coordinate {
        if let coordinate = Geocoder.coordinate(in: text) { return coordinate }
        let parts = text.split(separator: ",")
        if parts.count == 2, parts.allSatisfy({ Double($0.trimmingCharacters(in: .whitespaces)) != nil }) {
            throw LocationError.coordinateOutOfRange(text)
        }
        guard let best = try find(text, near: nil, limit: 1).first
        else { throw LocationError.nothingFound(query: text) }
        return best.entry.coordinate
    }
}

/// A value loaded on first use and kept; a load that fails is tried again next time. One load at a
/// time: a server's first searches wait for the gazetteer together instead of each parsing it.
final class LoadedOnce<Value: Sendable>: Sendable {
    private let load: @Sendable () throws -> Value
    private let loaded = Locked<Value?>(nil)

    init(_ load: @escaping @Sendable () throws -> Value) {
        self.load = load
    }

    func value() throws -> Value {
        try loaded.withLock { loaded in
            if let loaded { return loaded }
            let value = try load()
            loaded = value
            return value
        }
    }
}
