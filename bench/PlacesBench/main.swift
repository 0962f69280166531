// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel

// bench/places.sh: names random land points with LocalPlaces (boundaries, then cities of that country and
// division) and counts how many the nearest-city rule puts in another country or division. Prints figures.

/// Resident memory now, in MB (Linux's /proc/self/statm, pages).
func residentMegabytes() -> Double {
    let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let pages = Double(statm.split(separator: " ").dropFirst().first ?? "0") ?? 0
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// SplitMix64: the same points from the same seed, so two builds' names can be compared point by point.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

let arguments = CommandLine.arguments
func option(_ name: String) -> String? { arguments.firstIndex(of: name).map { arguments[$0 + 1] } }
let count = option("--points").flatMap { Int($0) } ?? 100_000
let rounds = max(1, option("--rounds").flatMap { Int($0) } ?? 5)
let seed = option("--seed").flatMap { UInt64($0) } ?? 34
/// Where to write every point's place (id and name), one a line: compare two builds' files.
let namesFile = option("--names")
let gazetteer = URL(fileURLWithPath: "Fixtures/gazetteer")

let before = residentMegabytes()
var start = DispatchTime.now()
let places = try LocalPlaces(gazetteer: gazetteer)
let loading = seconds(since: start)
let loaded = residentMegabytes()

// Land points: uniform on the sphere, kept where the boundaries place them in a country.
let lookup = BoundaryLookup(try Boundaries.load(gazetteer.appendingPathComponent("boundaries.bin")))
var generator = SeededGenerator(state: seed)
var points: [(Coordinate, BoundaryLookup.Location)] = []
while points.count < count {
    let latitude = asin(Double.random(in: -1...1, using: &generator)) * 180 / .pi
    let longitude = Double.random(in: -180..<180, using: &generator)
    guard let coordinate = Coordinate(latitude: latitude, longitude: longitude),
        let location = lookup.locate(coordinate)
    else { continue }
    points.append((coordinate, location))
}

/// Names `points` `rounds` times: the median time (the first round, as an import's one pass, also printed),
/// and the places of the last round.
func name(_ points: [(Coordinate, BoundaryLookup.Location)]) -> (seconds: Double, places: [LocalPlace]) {
    var times: [Double] = []
    var named: [LocalPlace] = []
    for _ in 0..<rounds {
        let start = DispatchTime.now()
        named = points.map { places.place(for: $0.0) }
        times.append(seconds(since: start))
    }
    print(String(format: "  (rounds: %@ s)", times.map { String(format: "%.3f", $0) }.joined(separator: ", ")))
    return (median(times), named)
}
let (naming, randomPlaces) = name(points)
let named = randomPlaces.filter { $0.id != LocalPlace.unlocatedID }.count

// The nearest-city rule: the nearest GeoNames city whose reach covers the point, whatever its country.
// The cities of 15,000 people or more (and a few capitals), as the rule had them: not the villages find also reads.
let cities = try Gazetteer.load(
    gazetteer: gazetteer, landmarks: URL(fileURLWithPath: "/nonexistent"), places: []
).entries.filter { $0.kind == .city }
func cellKey(_ latitude: Int, _ longitude: Int) -> Int { (latitude + 90) * 400 + (longitude + 180 + 360) % 360 }
let byCell = Dictionary(grouping: cities) {
    cellKey(Int($0.coordinate.latitude.rounded(.down)), Int($0.coordinate.longitude.rounded(.down)))
}

/// How many of `points` the nearest-city rule names after a city, and of those how many it puts in another
/// country, or in the same country but another division.
func disagreements(_ points: [(Coordinate, BoundaryLookup.Location)]) -> (covered: Int, country: Int, division: Int) {
    var result = (covered: 0, country: 0, division: 0)
    for (coordinate, location) in points {
        var nearest: (city: GazetteerEntry, distance: Double)?
        let latitude = Int(coordinate.latitude.rounded(.down))
        let longitude = Int(coordinate.longitude.rounded(.down))
        // 30 km, the greatest reach, is within the next cell but near the poles, where no city is.
        for dLat in -1...1 {
            for dLon in -1...1 {
                for city in byCell[cellKey(latitude + dLat, longitude + dLon)] ?? [] {
                    let distance = coordinate.distance(to: city.coordinate)
                    if distance <= LocalPlaces.reach(population: city.population),
                        distance < nearest?.distance ?? .infinity
                    {
                        nearest = (city, distance)
                    }
                }
            }
        }
        guard let city = nearest?.city else { continue }
        result.covered += 1
        if city.country != location.country.country {
            result.country += 1
        } else if let division = location.division?.division, !division.isEmpty, city.admin1 != division,
            // As LocalPlaces does: a city whose centre the generalised outlines put there is of it.
            lookup.locate(city.coordinate)?.division?.division != division
        {
            result.division += 1
        }
    }
    return result
}

// Photos are taken where people are: points within 20 km of a random city (uniform over the disc).
var peopled: [(Coordinate, BoundaryLookup.Location)] = []
while peopled.count < count {
    guard let city = cities.randomElement(using: &generator) else { break }
    let distance = 20 * Double.random(in: 0...1, using: &generator).squareRoot() / 111.2
    let bearing = Double.random(in: 0..<(2 * .pi), using: &generator)
    let shrink = max(cos(city.coordinate.latitude * .pi / 180), 0.01)
    guard
        let coordinate = Coordinate(
            latitude: city.coordinate.latitude + distance * cos(bearing),
            longitude: city.coordinate.longitude + distance * sin(bearing) / shrink),
        let location = lookup.locate(coordinate)
    else { continue }
    peopled.append((coordinate, location))
}

func describe(_ name: String, _ found: (covered: Int, country: Int, division: Int)) -> String {
    String(
        format: "%@: the nearest-city rule names %d after a city; %d (%.2f%%) of those in another country, "
            + "%d (%.2f%%) more in another division",
        name, found.covered, found.country, Double(found.country) / Double(max(found.covered, 1)) * 100,
        found.division, Double(found.division) / Double(max(found.covered, 1)) * 100)
}

/// The nearest-city rule over `points`, timed: the baseline (medians of `rounds`).
func timedDisagreements(
    _ points: [(Coordinate, BoundaryLookup.Location)]
) -> (seconds: Double, found: (covered: Int, country: Int, division: Int)) {
    var times: [Double] = []
    var found = (covered: 0, country: 0, division: 0)
    for _ in 0..<rounds {
        let start = DispatchTime.now()
        found = disagreements(points)
        times.append(seconds(since: start))
    }
    return (median(times), found)
}

print("seed \(seed); times are medians of \(rounds) rounds")
print(
    String(
        format: """
            loading the gazetteer and boundaries: %.2f s, %.0f MB resident more (from %.0f MB)
            naming %d random land points: %.3f s (%.1f µs a point), %d named
            """,
        loading, loaded - before, before, points.count, naming, naming / Double(points.count) * 1e6, named))
let randomRule = timedDisagreements(points)
print(
    String(format: "  the nearest-city rule alone (baseline, 34,006 cities, no boundaries): %.3f s", randomRule.seconds)
)
print(describe("random land points", randomRule.found))
let (peopledNaming, peopledPlaces) = name(peopled)
// GeoNames ids are digits; divisions, countries and squares have a prefix.
let peopledNamed = peopledPlaces.filter { $0.id.allSatisfy(\.isNumber) }.count
print(
    String(
        format: "naming %d points within 20 km of a random city: %.3f s (%.1f µs a point); %d named after a place",
        peopled.count, peopledNaming, peopledNaming / Double(peopled.count) * 1e6, peopledNamed))
let peopledRule = timedDisagreements(peopled)
print(String(format: "  the nearest-city rule alone (baseline): %.3f s", peopledRule.seconds))
print(describe("points within 20 km of a random city", peopledRule.found))
// A photo at a city's own centre should be named after it; where Natural Earth's border is a kilometre off
// (Narva's centre lies in its Russia), it is not.
let elsewhere = cities.filter { places.place(for: $0.coordinate).id != $0.id }
print(
    "cities whose own centre is named otherwise: \(elsewhere.count) of \(cities.count)"
        + " (e.g. \(elsewhere.prefix(5).map { "\($0.name), \($0.country)" }.joined(separator: "; ")))")
print(String(format: "resident at the end: %.0f MB", residentMegabytes()))
if let namesFile {
    let lines = zip(points + peopled, randomPlaces + peopledPlaces).map { point, place in
        String(format: "%.6f,%.6f\t", point.0.latitude, point.0.longitude) + "\(place.id)\t\(place.fullName)\n"
    }
    try lines.joined().write(toFile: namesFile, atomically: true, encoding: .utf8)
    print("names of the \(lines.count) points written to \(namesFile)")
}
