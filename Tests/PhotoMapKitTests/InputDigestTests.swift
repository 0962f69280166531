// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// One digest of a record's fields, for the pages (`SiteManifest`) and the index (`IndexRecorder`):
/// fields that run together differently never give the same digest.
@Suite("Input digests")
struct InputDigestTests {
    static let photo = Photo(
        id: "1", title: "a", descriptionHTML: "b c", coordinate: Coordinate(latitude: 1, longitude: 2))

    @Test("tags, texts split differently, and the old separators give different digests")
    func runTogether() {
        var oneTag = Self.photo, twoTags = Self.photo
        oneTag.tags = ["a b"]
        twoTags.tags = ["a", "b"]
        #expect(oneTag.inputDigest != twoTags.inputDigest)
        var moved = Self.photo
        moved.title = "a b"
        moved.descriptionHTML = "c"
        #expect(moved.inputDigest != Self.photo.inputDigest)
        // 0x1F once ended each value; a value holding it must not end early.
        var separated = Self.photo, joined = Self.photo
        separated.tags = ["x\u{1F}", "y"]
        joined.tags = ["x", "\u{1F}y"]
        #expect(separated.inputDigest != joined.inputDigest)
        #expect(InputDigest("ab", "c").finish() != InputDigest("a", "bc").finish())
        #expect(InputDigest("").finish() != InputDigest().finish())
    }

    @Test("the index adds a listing again when only the way its tags run together changed")
    func indexNoticesTags() throws {
        let folder = try TemporaryFolder()
        let store = SQLiteIndexStore(cacheDirectory: folder.url)
        let recorder = IndexRecorder(index: store, warn: { Issue.record("\($0)") })
        let adapter = AnnotationAdapter()
        var photo = Self.photo
        photo.tags = ["golden gate"]
        recorder.record(places: [], photos: adapter.annotated([photo]))
        #expect(try store.open().photo(id: "1")?.tags == ["golden gate"])
        photo.tags = ["golden", "gate"]
        recorder.record(places: [], photos: adapter.annotated([photo]))
        #expect(try store.open().photo(id: "1")?.tags == ["golden", "gate"])
    }
}
