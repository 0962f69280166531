// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// Turns a typed address, landmark or place name into locations, best first, ranked like Nominatim:
/// how well the text matches, then importance (population), with a region given by `near` favoured
/// (Nominatim's viewbox penalty: none inside, half near, full outside).
public struct Geocoder: Sendable {
    /// One location found.
    public struct Result: Sendable {
        public var entry: GazetteerEntry
        /// Higher is better.
        public var score: Double
        /// From `near`, when given.
        public var distanceKilometres: Double?
        /// How well the text matched (`Geocoder.match`): 1 the exact name, 0.9 an exact alternate (or a
        /// landmark's street), less for a name the query starts or only holds words of.
        public var match: Double

        /// A result.
        public init(entry: GazetteerEntry, score: Double, distanceKilometres: Double?, match: Double = 1) {
            self.entry = entry
            self.score = score
            self.distanceKilometres = distanceKilometres
            self.match = match
        }

        /// Whether the query named this location outright (its name or an alternate, whole).
        public var isExact: Bool { match >= 0.9 }
    }

    /// Inside this distance of `near` a result is not penalised; up to `nearDistance` it is half penalised.
    public static let insideDistance = 50.0
    public static let nearDistance = 500.0

    /// Where names are looked up: the parsed gazetteer, or its index.
    public let gazetteer: any GazetteerLookup

    /// A geocoder over a gazetteer.
    public init(gazetteer: any GazetteerLookup) {
        self.gazetteer = gazetteer
    }

    /// Below this a service's candidate never scores its text: the service matched it (an alternate
    /// name, an abbreviation), so it ranks at least as a name the query starts.
    static let candidateMatch = 0.7

    /// Locations for `query`, best first. A qualifier after the first comma narrows by country or
    /// region ("Portland, Maine", "Córdoba, Argentina"); "lat,lon" is a location of its own.
    /// `candidates` are another geocoder's answers (flickr.places.find's, in its order): they are
    /// ranked with the gazetteer's entries under the same rule.
    public func find(
        _ query: String, near: Coordinate? = nil, limit: Int = 10,
        candidates: [GazetteerEntry] = []
    ) throws -> [Result] {
        if let coordinate = Self.coordinate(in: query) {
            let entry = GazetteerEntry(kind: .city, id: "", name: "", coordinate: coordinate)
            return [Result(entry: entry, score: 1, distanceKilometres: near.map { $0.distance(to: coordinate) })]
        }
        var text = query
        var allowed: [(country: String, admin1: String)]?
        var qualifierText = ""
        // "Portland, Maine" and "Portland, Maine, USA": each part after a comma may name a region; the most
        // specific (a state within a named country) narrows.
        let parts = query.split(separator: ",").map { String($0) }
        let named = try parts.dropFirst().map { try gazetteer.regions(named: $0) }
        if parts.count > 1, named.allSatisfy({ !$0.isEmpty }) {
            let regions = named.flatMap { $0 }
            let countries = Set(regions.filter { $0.admin1.isEmpty }.map(\.country))
            let states = regions.filter { !$0.admin1.isEmpty && (countries.isEmpty || countries.contains($0.country)) }
            text = parts[0]
            allowed = states.isEmpty ? regions : states
            qualifierText = SearchText.normalized(parts[1])
        }
        let wanted = SearchText.normalized(text)
        guard !wanted.isEmpty else { return [] }
        let wantedWords = wanted.split(separator: " ")
        var results: [Result] = []
        func add(_ entry: GazetteerEntry, match: Double) {
            let distance = near.map { $0.distance(to: entry.coordinate) }
            let penalty = distance.map { $0 <= Self.insideDistance ? 0 : $0 <= Self.nearDistance ? 0.5 : 1 } ?? 0
            results.append(
                Result(
                    entry: entry, score: match + 0.5 * Self.importance(entry) - 0.6 * penalty,
                    distanceKilometres: distance, match: match))
        }
        // The service resolved any qualifier itself; its order breaks ties among its candidates.
        for (position, entry) in candidates.enumerated() {
            let match = max(
                Self.match(wanted, words: wantedWords, against: Gazetteer.names(of: entry)),
                Self.candidateMatch)
            add(entry, match: match - 0.001 * Double(position))
        }
        for (entry, entryNames) in try gazetteer.entries(withWordsStarting: wantedWords) {
            if let allowed {
                // Cities carry codes; landmarks and catalog places carry names ("New York, United States").
                let inRegion =
                    entry.kind == .city || entry.kind == .village
                    ? allowed.contains {
                        $0.country == entry.country && ($0.admin1.isEmpty || $0.admin1 == entry.admin1)
                    }
                    : SearchText.normalized(entry.context).contains(qualifierText)
                guard inRegion else { continue }
            }
            let match = Self.match(wanted, words: wantedWords, against: entryNames)
            guard match > 0 else { continue }
            add(entry, match: match)
        }
        // Villages come after every city, landmark or place the query matches, so what find answered before
        // it knew villages it still answers ("Toronto" the city, "Mont" Montréal, not the villages of those
        // names); "Zermatt", which matches no city, is the village.
        if let floor = results.filter({ $0.entry.kind != .village }).map(\.score).min() {
            for index in results.indices where results[index].entry.kind == .village && results[index].score >= floor {
                results[index].score = floor - 0.001
            }
        }
        results.sort { $0.score != $1.score ? $0.score > $1.score : $0.entry.population > $1.entry.population }
        // A catalog place and the GeoNames city it is are one location: keep the better one.
        var kept: [Result] = []
        for result in results where kept.count < limit {
            let name = SearchText.normalized(result.entry.name)
            let duplicate = kept.contains {
                SearchText.normalized($0.entry.name) == name
                    && $0.entry.coordinate.distance(to: result.entry.coordinate) < 5
            }
            if !duplicate { kept.append(result) }
        }
        return kept
    }

    /// 1 for the exact name, 0.9 an exact alternate, 0.7 a name the query starts, 0.5 a name holding
    /// every word of the query (as a word or a word's start); 0 otherwise.
    ///
    /// Names are compared as Swift compares text (by characters, canonically), which costs most of a
    /// query over thousands of names. For a query in ASCII a cheaper byte comparison decides first:
    /// a name that fails it fails the character comparison too (normalized names hold no character
    /// equivalent to an ASCII letter but that letter), and for an ASCII name the two agree.
    static func match(_ wanted: String, words: [Substring], against names: [String]) -> Double {
        let asciiQuery = wanted.utf8.allSatisfy { $0 < 0x80 }
        let wantedLength = wanted.count
        var best = 0.0
        for (position, name) in names.enumerated() {
            let level: Double
            if asciiQuery {
                let bytes = byteLevel(wanted, words: words, name: name)
                level =
                    bytes == 0 || name.utf8.allSatisfy({ $0 < 0x80 })
                    ? bytes
                    : characterLevel(wanted, length: wantedLength, words: words, name: name)
            } else {
                level = characterLevel(wanted, length: wantedLength, words: words, name: name)
            }
            if level == 1 { return position == 0 ? 1 : 0.9 }
            best = max(best, level)
        }
        return best
    }

    /// How one name matches, compared by characters: 1 equal, 0.7 started by the query, 0.5 holding
    /// its words, else 0.
    static func characterLevel(_ wanted: String, length: Int, words: [Substring], name: String) -> Double {
        if name == wanted { return 1 }
        if name.hasPrefix(wanted + " ") || (name.hasPrefix(wanted) && length >= 4) { return 0.7 }
        let nameWords = name.split(separator: " ")
        return words.allSatisfy({ word in nameWords.contains { $0.hasPrefix(word) } }) ? 0.5 : 0
    }

    /// The same levels, compared byte by byte (the query is ASCII, so its length is its byte count).
    private static func byteLevel(_ wanted: String, words: [Substring], name: String) -> Double {
        let nameBytes = name.utf8, wantedBytes = wanted.utf8
        if nameBytes.starts(with: wantedBytes) {
            if nameBytes.count == wantedBytes.count { return 1 }
            if wantedBytes.count >= 4
                || nameBytes[nameBytes.index(nameBytes.startIndex, offsetBy: wantedBytes.count)] == 0x20
            {
                return 0.7
            }
        }
        for word in words {
            var found = false, atWordStart = true, index = nameBytes.startIndex
            while index != nameBytes.endIndex {
                if atWordStart && nameBytes[index...].starts(with: word.utf8) {
                    found = true
                    break
                }
                atWordStart = nameBytes[index] == 0x20
                index = nameBytes.index(after: index)
            }
            if !found { return 0 }
        }
        return 0.5
    }

    /// 0–1: population on a log scale for cities and villages; landmarks are notable by being there; Flickr's places
    /// by their type (a country over a region over a town).
    static func importance(_ entry: GazetteerEntry) -> Double {
        switch entry.kind {
        case .city, .village: return min(log10(Double(entry.population) + 1) / 7, 1)
        case .landmark: return 0.75
        case .place:
            // Flickr's place_type_id: 29 continent, 12 country, 8 region, 9 county, 7 locality, 22 neighbourhood.
            switch entry.placeTypeID {
            case 29?, 12?: return 0.95
            case 8?: return 0.85
            case 9?: return 0.75
            case 22?: return 0.5
            default: return 0.7
            }
        }
    }

    /// A query that is itself "lat,lon".
    public static func coordinate(in query: String) -> Coordinate? {
        let parts = query.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}

extension Coordinate {
    /// Great-circle distance in kilometres (haversine, mean Earth radius 6,371 km).
    public func distance(to other: Coordinate) -> Double {
        let radians = Double.pi / 180
        let dLat = (other.latitude - latitude) * radians, dLon = (other.longitude - longitude) * radians
        let a =
            sin(dLat / 2) * sin(dLat / 2)
            + cos(latitude * radians) * cos(other.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371 * asin(min(1, sqrt(a)))
    }
}

extension GazetteerEntry {
    /// The annotation for a found location, by the classic rule: the landmark's name (an area of
    /// interest); else street and number; else the locality; else "Your location". The subtitle is the
    /// coordinate with six decimals.
    public var annotation: Annotation {
        let title =
            kind == .landmark && !name.isEmpty
            ? name
            : !street.isEmpty ? street : !locality.isEmpty ? locality : "Your location"
        let subtitle = String(format: "Lat:%.6f Lon:%.6f", coordinate.latitude, coordinate.longitude)
        return Annotation(
            kind: .location, id: id.isEmpty ? subtitle : id, title: title, subtitle: subtitle,
            coordinate: coordinate)
    }
}
