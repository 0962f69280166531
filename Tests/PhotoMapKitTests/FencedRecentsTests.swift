// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("FencedRecents: the recently viewed photos as a viewer may see them")
struct FencedRecentsTests {
    let folder: TemporaryFolder
    let paris = Coordinate(latitude: 48.8584, longitude: 2.2945)
    let tokyo = Coordinate(latitude: 35.6586, longitude: 139.7454)

    init() throws {
        folder = try TemporaryFolder()
    }

    var store: RecentPhotos { RecentPhotos(cacheDirectory: folder.url) }

    func flickr(_ id: String) -> Photo { Photo(id: id, title: "Flickr \(id)", coordinate: paris) }

    func local(_ number: Int) -> String { String(format: "local-%024x", number) }

    /// The folder's catalog, with the imported photo `number` at `coordinate` added for `visibility`.
    @discardableResult
    func imported(_ number: Int, at coordinate: Coordinate?, for visibility: Audience) throws -> Photo {
        let catalog = try LocalCatalog(file: LocalCatalog.file(in: folder.url))
        let photo = Photo(id: local(number), title: "Imported \(number)", coordinate: coordinate)
        var changes = LocalCatalogChanges()
        changes.privacy = PhotoPrivacy(visibility: visibility)
        changes.photos.append((photo, LocalPlace.unlocated, nil))
        var state = LocalFileState(size: 1, modified: 1, inode: Int64(number))
        state.photo = photo.id
        changes.files.append((Array(photo.id.utf8), state))
        _ = try catalog.apply(changes)
        return photo
    }

    /// The recents for a viewer of `role` (nil: anyone), over the folder's catalog.
    func recents(for role: Role?) -> FencedRecents {
        let folder = folder.url
        return FencedRecents(
            store: store, catalog: { try LocalCatalog.existing(in: folder) }, audiences: Audience.seen(by: role),
            showsFenced: role == .owner)
    }

    @Test("Flickr's photos pass as stored, most recent first, and the catalog is never read for them")
    func flickrPhotos() throws {
        let reads = Locked(0)
        let recents = FencedRecents(
            store: store,
            catalog: {
                reads.withLock { $0 += 1 }
                return nil
            })
        for id in ["1", "2", "3", "1"] { try recents.viewed(flickr(id)) }
        #expect(try recents.photos() == [flickr("1"), flickr("3"), flickr("2")])
        #expect(reads.withLock { $0 } == 0)
    }

    @Test("an imported photo is read again for each listing: one the viewer may not see, or gone, is left out")
    func audiences() throws {
        try imported(1, at: paris, for: .public)
        try imported(2, at: tokyo, for: .private)
        try imported(3, at: tokyo, for: .friends)
        let owner = recents(for: .owner)
        for id in [local(1), local(2), local(3), local(4)] {
            try owner.viewed(Photo(id: id, title: id, coordinate: paris))
        }
        try owner.viewed(flickr("9"))
        // Stored whole, as viewed; listed as the catalog holds them now (local 4 is in no catalog).
        #expect(try store.photos().map(\.id) == ["9", local(4), local(3), local(2), local(1)])
        #expect(try owner.photos().map(\.id) == ["9", local(3), local(2), local(1)])
        #expect(try owner.photos().first { $0.id == local(1) }?.title == "Imported 1", "the catalog's, not the stored")
        #expect(try recents(for: .friend).photos().map(\.id) == ["9", local(3), local(1)])
        #expect(try recents(for: nil).photos().map(\.id) == ["9", local(1)])

        let noCatalog = FencedRecents(store: store, catalog: { nil })
        #expect(try noCatalog.photos().map(\.id) == ["9"], "imported photos without their catalog are left out")
    }

    @Test("a fence hides an imported photo's location from all but the owner, even one viewed before it")
    func fences() throws {
        let photo = try imported(1, at: paris, for: .public)
        try imported(2, at: tokyo, for: .public)
        let anyone = recents(for: nil)
        try anyone.viewed(photo)
        let catalog = try LocalCatalog(file: LocalCatalog.file(in: folder.url))
        try catalog.add(Geofence(name: "home", centre: try #require(paris), radius: 500))
        #expect(try anyone.photos().first?.coordinate == nil)
        #expect(try recents(for: .owner).photos().first?.coordinate == paris)
        #expect(try store.photos().first?.coordinate == paris, "viewed before the fence: stored with it")

        // Viewed once the fence is there, it is kept without its location; one outside keeps its own.
        try anyone.viewed(Photo(id: local(2), title: "Imported 2", coordinate: tokyo))
        try anyone.viewed(photo)
        #expect(try store.photos().map(\.coordinate) == [nil, tokyo])
        #expect(try store.photos().map(\.id) == [local(1), local(2)])
    }
}
