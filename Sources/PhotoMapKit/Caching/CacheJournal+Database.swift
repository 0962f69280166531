// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

extension CacheJournal {
    /// The database, opened (and made) on first use. A file that is not a journal (SQLite says it
    /// is not a database, or corrupt) is replaced by a new one, rebuilt from the disk; any other
    /// failure (busy, full, read-only) is thrown, the file left as it is. Runs on `queue`.
    func opened() throws(SQLiteError) -> SQLiteDatabase {
        if let database { return database }
        try? FileManager.default.createDirectory(atPath: store.root.path, withIntermediateDirectories: true)
        let database: SQLiteDatabase
        do {
            database = try Self.open(file)
        } catch let error where error.isNotADatabase {
            for suffix in ["", "-wal", "-shm"] { unlink(file + suffix) }
            database = try Self.open(file)
        }
        self.database = database
        let isNew = (try? database.prepare("SELECT value FROM meta WHERE key = 'reconciled'").step()) != true
        if isNew || SessionMarker.removeAbandoned(in: sessions) > 0 {
            reconcile(with: store.entries())
            try? database.execute("INSERT OR REPLACE INTO meta VALUES ('reconciled', strftime('%s', 'now'))")
        }
        return database
    }

    /// Opens the journal, making its tables once (`user_version` 1): an open of a made journal
    /// takes no write lock.
    private static func open(_ file: String) throws(SQLiteError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: file)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
        let version = try database.prepare("PRAGMA user_version")
        guard try version.step(), version.integer(0) == 0 else { return database }
        try database.execute(
            """
            BEGIN IMMEDIATE;
            CREATE TABLE IF NOT EXISTS entries (name TEXT PRIMARY KEY, bytes INTEGER NOT NULL, used REAL NOT NULL) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS entries_by_use ON entries (used);
            CREATE TABLE IF NOT EXISTS totals (entries INTEGER NOT NULL, bytes INTEGER NOT NULL, hits INTEGER NOT NULL,
                misses INTEGER NOT NULL, downloads INTEGER NOT NULL, failures INTEGER NOT NULL);
            INSERT INTO totals SELECT 0, 0, 0, 0, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM totals);
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
            CREATE TRIGGER IF NOT EXISTS entry_added AFTER INSERT ON entries
                BEGIN UPDATE totals SET entries = entries + 1, bytes = bytes + NEW.bytes; END;
            CREATE TRIGGER IF NOT EXISTS entry_removed AFTER DELETE ON entries
                BEGIN UPDATE totals SET entries = entries - 1, bytes = bytes - OLD.bytes; END;
            CREATE TRIGGER IF NOT EXISTS entry_resized AFTER UPDATE OF bytes ON entries
                BEGIN UPDATE totals SET bytes = bytes - OLD.bytes + NEW.bytes; END;
            PRAGMA user_version = 1;
            COMMIT;
            """)
        return database
    }
}
