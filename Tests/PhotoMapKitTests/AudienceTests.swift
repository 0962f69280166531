// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("Audiences: who sees a photo and where it was taken")
struct AudienceTests {
    @Test("each viewer's audiences, Flickr's way; a location never wider than its photo")
    func widths() {
        #expect(Audience.seen(by: nil) == [.public])
        #expect(Audience.seen(by: .friend) == [.public, .friends, .friendsAndFamily])
        #expect(Audience.seen(by: .family) == [.public, .family, .friendsAndFamily])
        #expect(Audience.seen(by: .friendAndFamily) == Set(Audience.allCases).subtracting([.private]))
        #expect(Audience.seen(by: .owner) == Set(Audience.allCases))
        #expect(Audience.friends.isWithin(.friendsAndFamily) && !Audience.friends.isWithin(.family))
        #expect(Audience.private.isWithin(.friends) && !Audience.public.isWithin(.friendsAndFamily))
        #expect(PhotoPrivacy(visibility: .friends, location: .public) == nil)
        #expect(PhotoPrivacy(visibility: .friendsAndFamily, location: .family)?.location == .family)
    }

    /// A catalog of two photos at Bled, `a` and `b`, added with `privacy`.
    func catalog(in folder: TemporaryFolder, privacy: PhotoPrivacy) throws -> LocalCatalog {
        let catalog = try LocalCatalog(file: LocalCatalog.file(in: folder.url))
        var changes = LocalCatalogChanges()
        changes.privacy = privacy
        let bled = LocalPlace(id: "3196359", shortName: "Bled", fullName: "Bled, Slovenia", coordinate: nil)
        for (index, id) in ["local-a", "local-b"].enumerated() {
            let photo = Photo(
                id: id, title: id, ownerName: "", dateTaken: nil,
                coordinate: Coordinate(latitude: 46.3683, longitude: 14.1146), license: nil)
            changes.photos.append((photo, bled, nil))
            var state = LocalFileState(size: 1, modified: 1, inode: Int64(index))
            state.photo = id
            changes.files.append((Array(id.utf8), state))
        }
        _ = try catalog.apply(changes)
        return catalog
    }

    @Test("a viewer's store lists only what its audiences see, a hidden location as a fence hides one")
    func views() throws {
        let folder = try TemporaryFolder()
        let catalog = try catalog(in: folder, privacy: PhotoPrivacy(visibility: .private))
        #expect(try catalog.places().isEmpty && catalog.allPhotos().isEmpty && catalog.photo(id: "local-a") == nil)
        try catalog.setPrivacy(
            try #require(PhotoPrivacy(visibility: .public, location: .family)), of: ["local-a"])
        let shown = try catalog.allPhotos()
        #expect(shown.map(\.id) == ["local-a"] && shown.first?.coordinate == nil)
        #expect(try catalog.places().map(\.id) == [LocalPlace.unlocatedID])
        catalog.audiences = Audience.seen(by: .family)
        #expect(try catalog.photo(id: "local-a")?.coordinate != nil && catalog.photo(id: "local-b") == nil)
        catalog.audiences = Audience.seen(by: .owner)
        #expect(try catalog.photos(inPlace: "3196359", limit: 10).total == 2)
        // Imported again, a photo keeps the audiences it was given.
        _ = try self.catalog(in: folder, privacy: PhotoPrivacy(visibility: .friends))
        let kept = try catalog.privacy(of: .all)
        #expect(kept.map(\.privacy.visibility) == [.public, .private], "\(kept)")
        #expect(try catalog.privacy(of: .place("3196359")).count == 2)
        #expect(try catalog.privacy(of: .ids(["local-b", "local-zz"])).map(\.id) == ["local-b"])
    }
}
