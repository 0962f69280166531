/// The recent location edits made through `serve`, kept by the server so that an undo puts back what the
/// catalog held (the source included), never what a client says it held: the last `depth` edits of each
/// owner, each under an id of 128 random bits.
final class EditHistory: Sendable {
    /// One edit: its photos as they were before it, and as it left them.
    struct Edit: Sendable {
        let id: String
        let before: [Photo]
        let after: [Photo]
    }

    /// How many edits of one owner are kept (the page's undo goes back as far).
    let depth: Int
    private let kept = Locked<[String: [Edit]]>([:])

    /// A history keeping the last `depth` edits of each owner.
    init(depth: Int) {
        self.depth = depth
    }

    /// Keeps an edit by `owner` of the photos `before` (as they were) into `after` (as written); its id.
    func keep(by owner: String, before: [Photo], after: [Photo]) -> String {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }
            .map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined()
        kept.withLock { kept in
            var edits = kept[owner] ?? []
            edits.append(Edit(id: id, before: before, after: after))
            kept[owner] = Array(edits.suffix(depth))
        }
        return id
    }

    /// The edit `id` by `owner`, or nil when it was never made, by someone else, or is no longer kept.
    func edit(_ id: String, by owner: String) -> Edit? {
        kept.withLock { $0[owner]?.last { $0.id == id } }
    }

    /// Forgets the edit `id` by `owner` (it was undone).
    func forget(_ id: String, by owner: String) {
        kept.withLock { $0[owner]?.removeAll { $0.id == id } }
    }

    /// Whether `id` has the form of an edit's id: 32 lowercase hex digits.
    static func isValid(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
