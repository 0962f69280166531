// SPDX-License-Identifier: Apache-2.0
import Foundation

extension CacheJournal {
    /// Removes least-recently-used entries (files and records) until at most `maximumBytes` remain,
    /// never one of `keeping` (entries just stored for callers waiting on them); returns what went (with
    /// `dryRun`, what would go: nothing is removed). Runs on `queue`.
    @discardableResult
    func evict(downTo maximumBytes: Int, keeping: Set<String> = [], dryRun: Bool = false) -> (entries: Int, bytes: Int)
    {
        var removed = (entries: 0, bytes: 0)
        guard let database = try? opened() else { return removed }
        do {
            try database.transaction {
                var bytes = recordedBytes(in: database)
                let oldest = try database.prepare("SELECT name, bytes FROM entries ORDER BY used")
                let delete = try database.prepare("DELETE FROM entries WHERE name = ?")
                var gone: [String] = []
                while bytes > maximumBytes, try oldest.step() {
                    let name = oldest.text(0)
                    guard !keeping.contains(name) else { continue }
                    let size = Int(oldest.integer(1) ?? 0)
                    // A dry run counts what would go, and removes nothing.
                    let status = dryRun ? 0 : unlink(store.file(named: name).path)
                    guard status == 0 || errno == ENOENT else { continue }
                    gone.append(name)
                    bytes -= size
                    if status == 0 {
                        removed.entries += 1
                        removed.bytes += size
                    }
                }
                for name in gone where !dryRun {
                    try delete.bind([.text(name)])
                    try delete.step()
                }
            }
        } catch {
            // The files already removed are gone either way; the next reconcile drops their records.
        }
        return removed
    }

    /// Makes the records match the disk: files without a record are added (last used: their
    /// modification time), records without a file dropped, sizes corrected. Runs on `queue`.
    func reconcile(with entries: [DiskStore.Entry]) {
        writeBatch()
        guard let database = try? opened() else { return }
        try? database.transaction {
            var recorded: [String: Int] = [:]
            let all = try database.prepare("SELECT name, bytes FROM entries")
            while try all.step() { recorded[all.text(0)] = Int(all.integer(1) ?? 0) }
            let upsert = try database.prepare(
                """
                INSERT INTO entries(name, bytes, used) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET bytes = excluded.bytes
                """)
            for entry in entries {
                let name = entry.url.lastPathComponent
                // Evicted by another process since the listing: no record comes back for it.
                if recorded.removeValue(forKey: name) != entry.bytes, access(entry.url.path, F_OK) == 0 {
                    try upsert.bind([
                        .text(name), .integer(Int64(entry.bytes)),
                        .real(entry.lastUsed.timeIntervalSince1970),
                    ])
                    try upsert.step()
                }
            }
            // A record the listing lacks may be an entry stored since the folder was listed: only
            // those whose file is really gone go.
            let delete = try database.prepare("DELETE FROM entries WHERE name = ?")
            for name in recorded.keys where access(store.path(named: name), F_OK) != 0 {
                try delete.bind([.text(name)])
                try delete.step()
            }
        }
    }

    /// Forgets every entry (after `cache clear`). Runs on `queue`.
    func removeAllEntries() {
        writeBatch()
        try? opened().execute("DELETE FROM entries")
    }
}
