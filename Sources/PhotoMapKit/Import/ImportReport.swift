/// What an import did: the counts its summary line gives, and a line for every file skipped or imported
/// without a field (`import --report`).
public struct ImportReport: Sendable {
    /// Image files considered (JPEG or HEIC by their bytes), read now or unchanged since last time.
    public var photos = 0
    /// Of those, the ones with a location.
    public var located = 0
    /// The ones without a location (listed under "Without a location").
    public var unlocated = 0
    /// The ones that could not be read (truncated, corrupt, too large).
    public var unreadable = 0
    /// The ones not read again, being as they were at the last import.
    public var unchanged = 0
    /// Files that are no JPEG or HEIC, skipped.
    public var otherFiles = 0
    /// Files below the folders gone from disk since the last import.
    public var gone = 0
    /// Of those, the ones whose photos stay (no `--prune`).
    public var goneKept = 0
    /// Photos dropped from the catalog (their files gone, with `--prune`, or changed).
    public var removedPhotos = 0
    /// One line per file skipped or imported without a field: its path as shown, and why.
    public var lines: [(path: String, reason: String)] = []

    /// The summary line: "1,942 photos read, 1,870 located, 64 without a location, 8 not readable".
    public var summary: String {
        var parts = [
            "\(Quantity.groupedWords(photos, "photo", "photos")) read", "\(Quantity.grouped(located)) located",
            "\(Quantity.grouped(unlocated)) without a location", "\(Quantity.grouped(unreadable)) not readable",
        ]
        if unchanged > 0 { parts.append("\(Quantity.grouped(unchanged)) unchanged") }
        if otherFiles > 0 { parts.append("\(Quantity.groupedWords(otherFiles, "other file", "other files")) skipped") }
        if gone > 0 {
            parts.append("\(Quantity.grouped(gone)) gone" + (goneKept > 0 ? " (kept: --prune drops them)" : ""))
        }
        if removedPhotos > 0 { parts.append("\(Quantity.groupedWords(removedPhotos, "photo", "photos")) removed") }
        return parts.joined(separator: ", ")
    }
}
