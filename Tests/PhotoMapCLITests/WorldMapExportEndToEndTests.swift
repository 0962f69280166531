// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapTestSupport
import Testing

/// `export`'s static twin of `serve`'s `/map`, run as a user would: imported photos in crowds and strays, a
/// few of them private; the public export's `map.html` and its tiles hold exactly the clusters `/api/map`
/// answers anyone, at every zoom it made, and no byte of the private photos is anywhere in the site.
@Suite("The map of everything, exported", .serialized)
struct WorldMapExportEndToEndTests {
    let photos: TemporaryFolder
    let cache: TemporaryFolder
    let out: TemporaryFolder

    /// Crowds around four towns and strays; each (title, latitude, longitude, date).
    static let shots: [(title: String, latitude: Double, longitude: Double, taken: String)] = {
        let towns = [(46.0512, 14.5061), (48.8566, 2.3522), (-33.8688, 151.2093), (35.6812, 139.7671)]
        var shots: [(String, Double, Double, String)] = []
        for number in 0..<48 {
            let town = towns[number % towns.count]
            // A fixed spread (no randomness): rings of photos a few hundred metres to a few km apart.
            let step = Double(number / towns.count)
            let latitude = number % 12 == 11 ? -60 + step * 9 : town.0 + 0.004 * step * cos(step)
            let longitude = number % 12 == 11 ? -170 + step * 27 : town.1 + 0.004 * step * sin(step)
            shots.append(
                (
                    "Wm\(number)", latitude, longitude,
                    String(format: "20%02d:%02d:15 12:00:00", 19 + number % 4, 1 + number % 12)
                ))
        }
        return shots
    }()
    /// The private ones: each at a spot of its own, alone in the world.
    static let secrets: [(title: String, latitude: Double, longitude: Double, taken: String)] = [
        ("ZqSecretOne", 12.345_678_9, -23.456_789_1, "2020:03:15 12:00:00"),
        ("ZqSecretTwo", 46.061_234_5, 14.517_654_3, "2021:07:15 12:00:00"),
    ]

    init() throws {
        photos = try TemporaryFolder()
        cache = try TemporaryFolder()
        out = try TemporaryFolder()
        let image = ExifJPEG.quarters(width: 64, height: 48)
        for shot in Self.shots + Self.secrets {
            var exif = ExifBlock()
            exif.ifd0 = [exif.ascii(0x010E, shot.title)]
            exif.exif = [exif.ascii(0x9003, shot.taken)]
            exif.setPosition(latitude: shot.latitude, longitude: shot.longitude)
            try ExifJPEG.make(image, exif: exif).write(to: photos.url.appendingPathComponent("\(shot.title).jpg"))
        }
    }

    func photomap(_ arguments: [String]) throws -> PhotomapBinary.Result {
        try PhotomapBinary.run(["--cache", cache.url.path] + arguments, environment: [:])
    }

    /// Imports the photos, every one public but the secrets; returns the secrets' ids.
    func importShots() throws -> [String] {
        let imported = try photomap(["import", photos.url.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try photomap(["visibility", "--all", "public"]).status == 0)
        var ids: [String: String] = [:]
        let places =
            try JSONSerialization.jsonObject(
                with: Data(try photomap(["--source", "local", "places", "--json"]).stdout.utf8)) as? [[String: Any]]
        for place in places ?? [] {
            let listed = try photomap([
                "--source", "local", "photos", "--place", place["id"] as? String ?? "", "--json",
            ])
            for photo in try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? [] {
                if let title = photo["title"] as? String, let id = photo["id"] as? String { ids[title] = id }
            }
        }
        let secrets = try Self.secrets.map { try #require(ids[$0.title], "\($0.title) imported") }
        for id in secrets { #expect(try photomap(["visibility", id, "private"]).status == 0) }
        return secrets
    }

    /// A tile file's items: `photomapTile(z, x, y, [items]);`.
    static func items(ofTile url: URL) throws -> [[Any]] {
        let text = try String(contentsOf: url, encoding: .utf8)
        let start = try #require(text.range(of: ", [")).lowerBound
        let json = text[text.index(start, offsetBy: 2)...].dropLast(3)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[Any]], "\(url.path)")
    }

    static func monthText(_ month: Int) -> String { String(format: "%04d-%02d", month / 12, month % 12 + 1) }

    @Test("map.html's tiles are /api/map's, the headers link it, and no byte of a private photo is in the site")
    func exportedTilesAreServedTiles() throws {
        let secrets = try importShots()
        let site = out.url.appendingPathComponent("site")
        let exported = try photomap(["--source", "local", "export", "--out", site.path])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stderr.contains("map of everything: map.html"), "\(exported.stderr)")
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("<a class=\"world-map\" href=\"map.html\">World map</a>"))
        let map = try String(contentsOf: site.appendingPathComponent("map.html"), encoding: .utf8)
        #expect(map.contains("Map of everything") && map.contains("\"clusters\":{"))

        let tiles = site.appendingPathComponent("map/tiles")
        let files =
            (FileManager.default.enumerator(at: tiles, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
            .filter { $0.pathExtension == "js" }
        let zooms = Set(
            files.compactMap { Int($0.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent) })
        #expect(zooms.count >= 3 && zooms.contains(0), "zooms made: \(zooms.sorted())")

        let server = try ServeProcess(["--cache", cache.url.path, "--source", "local"], environment: [:])
        defer { server.stop() }
        var compared = 0
        for file in files {
            let y = file.deletingPathExtension().lastPathComponent,
                x = file.deletingLastPathComponent().lastPathComponent
            let z = file.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
            let answer = try server.request("/api/map/\(z)/\(x)/\(y).json")
            #expect(answer.status == 200)
            let served = try #require(
                (try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["clusters"] as? [[String: Any]]
            )
            let items = try Self.items(ofTile: file)
            #expect(items.count == served.count, "\(z)/\(x)/\(y)")
            for (item, cluster) in zip(items, served) {
                let count = try #require(cluster["count"] as? Int)
                #expect(item[2] as? Int == count, "\(z)/\(x)/\(y)")
                #expect(abs((item[0] as? Double ?? 0) - (cluster["latitude"] as? Double ?? 1)) <= 1e-6)
                #expect(abs((item[1] as? Double ?? 0) - (cluster["longitude"] as? Double ?? 1)) <= 1e-6)
                if count == 1 {
                    #expect((item[3] as? [String: Any])?["id"] as? String == cluster["photo"] as? String)
                }
                // Its photos by month: as many as it counts, over the months it spans.
                let months = item.count > 4 ? item[4] as? [Int] ?? [] : []
                let byMonth = stride(from: 0, to: months.count, by: 2).map { (months[$0], months[$0 + 1]) }
                #expect(byMonth.reduce(0) { $0 + $1.1 } == count)
                #expect(byMonth.first.map { Self.monthText($0.0) } == cluster["from"] as? String)
                #expect(byMonth.last.map { Self.monthText($0.0) } == cluster["to"] as? String)
                compared += 1
            }
        }
        #expect(compared >= 40, "clusters compared: \(compared)")

        // No file of the public site holds a private photo's id, title, or both its coordinates.
        let every =
            (FileManager.default.enumerator(at: site, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
        var bytes = Data()
        for file in every { bytes += (try? Data(contentsOf: file)) ?? Data() }
        #expect(bytes.count > 100_000)
        for (id, secret) in zip(secrets, Self.secrets) {
            for word in [id, secret.title, String(id.dropFirst("local-".count))] {
                #expect(bytes.range(of: Data(word.utf8)) == nil, "\(word) is in the public site")
            }
            for places in [4, 5, 6] {
                let latitude = String(format: "%.\(places)f", secret.latitude)
                let longitude = String(format: "%.\(places)f", secret.longitude)
                #expect(
                    bytes.range(of: Data(latitude.utf8)) == nil || bytes.range(of: Data(longitude.utf8)) == nil,
                    "\(secret.title)'s coordinates are in the public site")
            }
        }
        // The owner's export shows them, on its map too.
        let owners = out.url.appendingPathComponent("owner")
        #expect(try photomap(["--source", "local", "export", "--out", owners.path, "--audience", "owner"]).status == 0)
        let ownTiles =
            (FileManager.default.enumerator(
                at: owners.appendingPathComponent("map/tiles"), includingPropertiesForKeys: nil)?
            .allObjects as? [URL] ?? []).compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined()
        #expect(ownTiles.contains(secrets[0]), "the lone private photo is on the owner's map")
    }
}
