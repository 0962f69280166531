import Testing

@testable import PhotoMapKit

/// The server's record of recent location edits, which an undo reads: per owner, bounded, forgotten once
/// undone.
@Suite("Edit history")
struct EditHistoryTests {
    @Test("each owner's last edits are kept under ids of their own; an older one, or another's, is not found")
    func bounded() {
        let history = EditHistory(depth: 3)
        let ids = (0..<5).map { _ in history.keep(by: "owner", before: [], after: []) }
        #expect(Set(ids).count == 5 && ids.allSatisfy(EditHistory.isValid))
        #expect(ids.prefix(2).allSatisfy { history.edit($0, by: "owner") == nil })
        #expect(ids.suffix(3).allSatisfy { history.edit($0, by: "owner")?.id == $0 })
        #expect(history.edit(ids[4], by: "olga") == nil)
        history.forget(ids[4], by: "owner")
        #expect(history.edit(ids[4], by: "owner") == nil && history.edit(ids[3], by: "owner") != nil)
    }

    @Test("an edit's id is 32 lowercase hex digits, nothing else")
    func validIDs() {
        #expect(EditHistory.isValid(String(repeating: "a1", count: 16)))
        for bad in [
            "", String(repeating: "A", count: 32), String(repeating: "a", count: 31),
            "../" + String(repeating: "a", count: 29),
        ] {
            #expect(!EditHistory.isValid(bad), "\(bad)")
        }
    }
}
