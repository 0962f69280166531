// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapTestSupport
import Testing

/// `photomap trips` and `visited` on a small imported catalog: four days at home in Ljubljana, a day trip
/// to Kranj (no trip), a week in Tuscany with a photo without a location, a home day, and New Year in
/// Vienna with photos either side of midnight in their own zone.
@Suite("Trips and visited end to end", .serialized)
struct TripsEndToEndTests {
    let photos: TemporaryFolder
    let cache: TemporaryFolder

    /// Name, local time taken, its offset, and where (nil: no location).
    static let taken: [(String, String, String?, (Double, Double)?)] = [
        ("home-1", "2024:03:01 10:00:00", "+01:00", (46.0569, 14.5058)),
        ("home-2", "2024:03:02 10:00:00", "+01:00", (46.0520, 14.5100)),
        ("home-3", "2024:03:03 10:00:00", "+01:00", (46.0600, 14.5000)),
        ("home-4", "2024:07:14 10:00:00", "+02:00", (46.0569, 14.5058)),
        ("kranj", "2024:05:01 12:00:00", "+02:00", (46.2389, 14.3556)),
        ("florence-1", "2024:07:10 09:00:00", "+02:00", (43.7696, 11.2558)),
        ("florence-2", "2024:07:10 18:00:00", "+02:00", (43.7731, 11.2560)),
        ("lost", "2024:07:11 12:00:00", "+02:00", nil),
        ("arezzo", "2024:07:12 12:00:00", "+02:00", (43.4633, 11.8796)),
        ("vienna-1", "2024:12:31 23:30:00", "+01:00", (48.2082, 16.3738)),
        ("vienna-2", "2025:01:01 00:30:00", "+01:00", (48.2100, 16.3700)),
    ]

    init() throws {
        photos = try TemporaryFolder()
        cache = try TemporaryFolder()
        try ExifJPEG.writeTaken(Self.taken, in: photos.url)
    }

    func local(_ arguments: [String]) throws -> PhotomapBinary.Result {
        try PhotomapBinary.run(["--cache", cache.url.path, "--source", "local"] + arguments)
    }

    @Test("trips finds the two trips with home guessed; visited lists countries, regions and towns")
    func tripsAndVisited() throws {
        #expect(try PhotomapBinary.run(["--cache", cache.url.path, "import", photos.url.path]).status == 0)

        let table = try local(["trips"])
        #expect(table.status == 0)
        #expect(table.stderr.contains("home: Ljubljana, Slovenia (46.05"))
        let rows = table.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.first == ["TRIP", "FROM", "TO", "DAYS", "PHOTOS", "KM", "COUNTRIES"])
        #expect(table.stdout.contains("2024-12-31  2025-01-01"))
        #expect(table.stdout.contains("Tuscany, Italy"))
        #expect(rows.last == ["2", "trips"])

        let json = try local(["trips", "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let home = try #require(document["home"] as? [String: Any])
        #expect(home["name"] as? String == "Ljubljana, Slovenia")
        let trips = try #require(document["trips"] as? [[String: Any]])
        #expect(trips.map { $0["id"] as? String } == ["2024-12-31", "2024-07-10"])
        #expect(trips.map { $0["days"] as? Int } == [2, 3])
        // The photo without a location is the Tuscany trip's too.
        #expect(trips.map { $0["photos"] as? Int } == [2, 4])
        #expect(trips.map { $0["countries"] as? [String] } == [["Austria"], ["Italy"]])
        let km = try #require(trips.last?["km"] as? Double)
        #expect((55...67).contains(km))

        let geojson = try local(["trips", "--home", "46.0569,14.5058", "--format", "geojson"])
        let collection = try #require(
            try JSONSerialization.jsonObject(with: Data(geojson.stdout.utf8)) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        #expect(features.count == 2)
        #expect(
            features.compactMap { ($0["geometry"] as? [String: Any])?["type"] as? String } == [
                "LineString", "LineString",
            ])

        let other = try PhotomapBinary.run(["--cache", cache.url.path, "trips"])
        #expect(other.status == 2)
        #expect(other.stderr.contains("--source local"))

        let visited = try local(["visited", "--format", "json"])
        let countries = try #require(
            try JSONSerialization.jsonObject(with: Data(visited.stdout.utf8)) as? [[String: Any]])
        #expect(countries.map { $0["name"] as? String } == ["Slovenia", "Italy", "Austria"])
        let slovenia = try #require(countries.first)
        #expect(slovenia["photos"] as? Int == 5)
        #expect(slovenia["days"] as? Int == 5)
        #expect(slovenia["first"] as? String == "2024-03-01")
        #expect(slovenia["last"] as? String == "2024-07-14")
        let regions = try #require(slovenia["regions"] as? [[String: Any]])
        #expect(regions.allSatisfy { $0["towns"] is [[String: Any]] })
        let csv = try local(["visited", "--format", "csv"])
        #expect(csv.stdout.hasPrefix("country,region,town,photos,days,first,last,cover,id\r\n"))
    }
}
