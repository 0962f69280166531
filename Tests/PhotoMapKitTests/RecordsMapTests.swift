// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// `import --records` keeps the map's aggregates a batch at a time (`MapCellChanges`), the triggers away:
/// after a load in batches, a second load that moves, unlocates, re-dates, fences and repeats records, and
/// a load that changes nothing, every tile's clusters are those the photos themselves make.
@Suite("Records keep the map's tiles exact, a batch at a time")
struct RecordsMapTests {
    typealias Shot = (id: String, coordinate: Coordinate?, taken: String?)

    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    static func records(_ shots: some Sequence<Shot>) -> [RecordPhoto] {
        shots.map { shot in
            RecordPhoto(
                PhotoRecord(
                    sourceID: shot.id, title: "Record \(shot.id)", taken: shot.taken, coordinate: shot.coordinate,
                    image: .url("http://127.0.0.1:9/\(shot.id).jpg")),
                place: .unlocated)
        }
    }

    /// Checks every sampled tile (random zooms around random shots, random month ranges) against the
    /// shots counted one by one and against the tile's photos clustered in Swift.
    static func expectExact(_ store: any LocalCatalogStore, _ shots: [Shot], fenced: Geofence? = nil) throws {
        let shown = shots.compactMap { shot -> (id: String, coordinate: Coordinate, taken: String?)? in
            guard let coordinate = shot.coordinate, fenced?.contains(coordinate) != true else { return nil }
            return (shot.id, coordinate, shot.taken)
        }
        var random = WorldMapCatalog(state: 0x0DDB_A11C_0FFE_E123)
        for number in 0..<240 {
            let zoom = random.below(MapTile.maximumZoom + 1)
            let anchor = shown[random.below(shown.count)].coordinate
            guard let tile = WorldMapCatalog.tile(of: anchor, zoom: number % 5 == 4 ? 0 : zoom) else { continue }
            let from = 2001 * 12 + random.below(240)
            let months = [MonthRange.all, MonthRange(from: from, to: nil), MonthRange(from: from, to: from + 60)][
                number % 3]
            guard let months else { continue }
            try WorldMapTests.expectTileExact(store, shown, tile, months)
        }
    }

    @Test("loaded in batches, changed, loaded again: every tile exact", arguments: StateEngine.allCases)
    func batchesKeepTilesExact(engine: StateEngine) throws {
        var generator = WorldMapCatalog()
        let first: [Shot] = generator.photos(600).map { ($0.id, $0.coordinate, $0.taken) }
        let store = try engine.place(in: folder.url).stores().localCatalogForImport()
        for start in stride(from: 0, to: first.count, by: 150) {
            #expect(try store.keepRecords(Self.records(first[start..<min(start + 150, first.count)])).count > 0)
        }
        try Self.expectExact(store, first)

        // A third moved (onto another record's spot: its cell's least id may be the one that went), a
        // sixth without a location, some re-dated, the rest as they were; a fence over one of the spots.
        var second = first
        for index in second.indices {
            switch index % 6 {
            case 0, 3: second[index].coordinate = first[(index * 7 + 11) % first.count].coordinate
            case 1: second[index].coordinate = nil
            case 2: second[index].taken = index % 4 == 0 ? nil : "2023-0\(1 + index % 9)-02 10:00:00"
            default: break
            }
        }
        let fence = Geofence(
            name: "home", centre: try #require(Coordinate(latitude: 48.85, longitude: 2.35)), radius: 3_000)
        try store.add(fence)
        for start in stride(from: 0, to: second.count, by: 100) {
            // A record given twice in one batch: the last one wins.
            var batch = Array(second[start..<min(start + 100, second.count)])
            let early: Shot = (
                batch[batch.count - 1].id, Coordinate(latitude: -40, longitude: 170), "2001-01-01 00:00:00"
            )
            batch.insert(early, at: 0)
            _ = try store.keepRecords(Self.records(batch))
        }
        try Self.expectExact(store, second, fenced: fence)
        #expect(try WorldMapTests.staleAggregates(store) == 0)
        // The owner's view, the fenced photos too, from the same aggregates.
        var owner = store
        (owner.audiences, owner.showsFenced) = (Audience.seen(by: .owner), true)
        try Self.expectExact(owner, second)

        // The same records again change nothing: no photo written, the version where it was.
        let version = try store.version()
        for start in stride(from: 0, to: second.count, by: 200) {
            #expect(try store.keepRecords(Self.records(second[start..<min(start + 200, second.count)])).isEmpty)
        }
        #expect(try store.version() == version)
        try Self.expectExact(store, second, fenced: fence)

        // Afterwards the triggers are back: a record moved alone, and the fence removed, leave exact tiles.
        second[5].coordinate = try #require(Coordinate(latitude: 35.68, longitude: 139.7))
        _ = try store.keepRecords(Self.records([second[5]]))
        try store.removeFence(named: "home")
        try Self.expectExact(store, second)
        #expect(try WorldMapTests.staleAggregates(store) == 0)
    }

    @Test("records load with the audience given; a record already there keeps its own", arguments: StateEngine.allCases)
    func recordsAudience(engine: StateEngine) throws {
        var generator = WorldMapCatalog()
        let shots: [Shot] = generator.photos(300).map { ($0.id, $0.coordinate, $0.taken) }
        var store = try engine.place(in: folder.url).stores().localCatalogForImport()
        _ = try store.keepRecords(Self.records(shots.prefix(100)), privacy: .everyone)
        _ = try store.keepRecords(Self.records(shots.dropFirst(100)), privacy: PhotoPrivacy(visibility: .family))
        // Loaded again as public: the family's records stay the family's.
        var moved = shots
        moved[150].taken = "2024-02-02 10:00:00"
        #expect(
            try store.keepRecords(Self.records(moved), privacy: .everyone).map(\.id)
                == Self.records([moved[150]]).map(\.photo.id))
        store.audiences = Audience.seen(by: nil)
        try Self.expectExact(store, Array(moved.prefix(100)))
        store.audiences = Audience.seen(by: .family)
        try Self.expectExact(store, moved)
        store.audiences = Audience.seen(by: .friend)
        try Self.expectExact(store, Array(moved.prefix(100)))
    }
}
