// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

extension LocalCatalog {
    /// Keeps the lines of tracks given to `import --gpx` or `geotag` for maps to draw: each line once
    /// (by the digest of its points), after the ones kept before. A new line moves the version on, so a
    /// running `serve` draws it.
    public func keep(_ tracks: TrackLines) throws {
        guard !tracks.isEmpty else { return }
        try database.transaction {
            let insert = try database.prepare(
                """
                INSERT INTO track_lines (digest, position, points, started)
                VALUES (?, (SELECT COALESCE(MAX(position), 0) + 1 FROM track_lines), ?, ?)
                ON CONFLICT (digest) DO NOTHING RETURNING position
                """)
            var added = false
            for (line, start) in zip(tracks.lines, tracks.starts) {
                let bytes = TrackLineBytes.bytes(of: line)
                try insert.bind([.blob(SHA256.digest(bytes)), .blob(bytes), start.map { .real($0) } ?? .null])
                // A row back: the line is new (then the statement is stepped to its end).
                if try insert.step() {
                    added = true
                    while try insert.step() {}
                }
            }
            guard added else { return }
            try database.prepare(
                "INSERT INTO meta VALUES ('version', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1"
            ).step()
        }
    }

    /// The lines kept, in the order they were first given, with when each began (none for lines kept
    /// before their times were); none in a catalog made before tracks were kept.
    public func keptTrackLines() throws -> TrackLines {
        let columns = try trackLineColumns()
        guard !columns.isEmpty else { return TrackLines() }
        let started = columns.contains("started") ? "started" : "NULL"
        let rows = try database.prepare("SELECT points, \(started) FROM track_lines ORDER BY position")
        var lines: [[Coordinate]] = []
        var starts: [Double?] = []
        while try rows.step() {
            lines.append(rows.withBytes(0) { TrackLineBytes.line(of: $0) })
            starts.append(rows.real(1))
        }
        return TrackLines(lines, starts: starts)
    }

    /// The columns of `track_lines`; none when the catalog has no such table.
    func trackLineColumns() throws -> Set<String> {
        let columns = try database.prepare("SELECT name FROM pragma_table_info('track_lines')")
        var names: Set<String> = []
        while try columns.step() { names.insert(columns.text(0)) }
        return names
    }
}
