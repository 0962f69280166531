// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// The record of recent location edits, which an undo takes back: per owner, bounded, taken once, on both
/// engines (the SQLite catalog and PostgreSQL), as `StateStores` chooses it.
@Suite("Edit history")
struct EditHistoryTests {
    @Test(
        "each owner's last edits are kept under ids of their own; an older one, or another's, is not found",
        arguments: StateEngine.allCases)
    func bounded(engine: StateEngine) throws {
        let folder = try TemporaryFolder()
        let history = try engine.place(in: folder.url).stores().editHistory
        let photo = Photo(id: "local-1", title: "Bled")
        let ids = try (0..<(history.depth + 2)).map { _ in try history.keep(by: "owner", before: [photo], after: []) }
        #expect(Set(ids).count == ids.count && ids.allSatisfy(KeptEdit.isValid))
        for old in ids.prefix(2) {
            #expect(
                try history.take(old, by: "owner") { _ in Issue.record("an edit no longer kept was undone") } == nil)
        }
        let last = try #require(ids.last)
        #expect(try history.take(last, by: "olga") { $0.id } == nil)
        let taken = try history.take(last, by: "owner") { $0 }
        #expect(taken?.id == last && taken?.before.map(\.title) == ["Bled"] && taken?.after.isEmpty == true)
        #expect(try history.take(last, by: "owner") { $0.id } == nil)
        #expect(try history.take(ids[ids.count - 2], by: "owner") { $0.id } == ids[ids.count - 2])
    }

    @Test("an undo that fails leaves its edit to be undone again", arguments: StateEngine.allCases)
    func failedUndoKeeps(engine: StateEngine) throws {
        struct Refused: Error {}
        let folder = try TemporaryFolder()
        let history = try engine.place(in: folder.url).stores().editHistory
        let first = try history.keep(by: "owner", before: [], after: [])
        let id = try history.keep(by: "owner", before: [], after: [])
        #expect(throws: Refused.self) { try history.take(id, by: "owner") { _ in throw Refused() } }
        #expect(try history.take(id, by: "owner") { $0.id } == id)
        // Put back in its place: still newer than the first.
        #expect(try history.take(first, by: "owner") { $0.id } == first)
    }

    @Test(
        "two undoes of one edit at once, through stores of their own: one applies it", arguments: StateEngine.allCases)
    func takenOnce(engine: StateEngine) throws {
        let folder = try TemporaryFolder()
        let place = try engine.place(in: folder.url)
        let id = try place.stores().editHistory.keep(by: "owner", before: [], after: [])
        let applied = Locked(0)
        let histories = try (0..<2).map { _ in try place.stores().editHistory }
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            _ = try? histories[index].take(id, by: "owner") { _ in
                applied.withLock { $0 += 1 }
                Thread.sleep(forTimeInterval: 0.3)
            }
        }
        #expect(applied.withLock { $0 } == 1)
    }

    @Test("an edit's id is 32 lowercase hex digits, nothing else")
    func validIDs() {
        #expect(KeptEdit.isValid(String(repeating: "a1", count: 16)))
        #expect(KeptEdit.isValid(KeptEdit.newID()))
        for bad in [
            "", String(repeating: "A", count: 32), String(repeating: "a", count: 31),
            "../" + String(repeating: "a", count: 29),
        ] {
            #expect(!KeptEdit.isValid(bad), "\(bad)")
        }
    }
}
