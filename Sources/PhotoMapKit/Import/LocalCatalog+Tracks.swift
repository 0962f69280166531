import Foundation

extension LocalCatalog {
    /// Keeps the lines of tracks given to `import --gpx` or `geotag` for maps to draw: each line once
    /// (by the digest of its points), after the ones kept before. A new line moves the version on, so a
    /// running `serve` draws it.
    public func keep(_ tracks: TrackLines) throws {
        guard !tracks.isEmpty else { return }
        try database.transaction {
            let insert = try database.prepare(
                """
                INSERT INTO track_lines (digest, position, points)
                VALUES (?, (SELECT COALESCE(MAX(position), 0) + 1 FROM track_lines), ?)
                ON CONFLICT (digest) DO NOTHING RETURNING position
                """)
            var added = false
            for line in tracks.lines {
                let bytes = TrackLineBytes.bytes(of: line)
                try insert.bind([.blob(SHA256.digest(bytes)), .blob(bytes)])
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

    /// The lines kept, in the order they were first given; none in a catalog made before tracks were kept.
    public func keptTrackLines() throws -> TrackLines {
        let table = try database.prepare(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'track_lines'")
        guard try table.step() else { return TrackLines() }
        let rows = try database.prepare("SELECT points FROM track_lines ORDER BY position")
        var lines: [[Coordinate]] = []
        while try rows.step() { lines.append(rows.withBytes(0) { TrackLineBytes.line(of: $0) }) }
        return TrackLines(lines)
    }
}
