// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel

/// `photomap import --records FILE`: photo records from a catalog made elsewhere (CSV or GeoJSON).
enum RecordsImport {
    static let option = Option<String>.path(
        "records", .file("FILE"),
        "read photo records from a CSV (header id,title,taken,latitude,longitude,image) or GeoJSON file "
            + "instead of photo files; squares are made from each image when first shown")

    static func run(
        _ path: String, _ options: ImportCommand.Options, configuration: Services, console: Console
    ) throws {
        var importer = RecordsImporter(places: ImportCommand.places)
        importer.privacy = PhotoPrivacy(visibility: options.visibility)
        let bar = ProgressBar(console: console, label: "reading records")
        importer.progress = { done, total, rows in bar.update(done: done, total: total, rows: rows) }
        let catalog = try configuration.state().localCatalogForImport()
        let indexer = CatalogIndexer(index: try configuration.state().index.open())
        // The search index follows each batch as it is written, rather than at the next search: what a batch
        // means for it is read here, and written by the follower while the catalog writes the next batch.
        // In step first (a catalog never indexed is, once empty), so that each batch meets the index as the one
        // before left it.
        try indexer.ensureLocal(catalog, adapter: configuration.adapter)
        // On a pool of one connection the two would only wait for each other, and a long batch would
        // outlast the pool's wait: the index then follows each batch in turn.
        let global = configuration.options
        let follower =
            global.database == nil || global.databaseConnections > 1
            ? IndexFollower(indexer, adapter: configuration.adapter) : nil
        importer.committed = { changed, before in
            guard let follower else {
                return try indexer.ensureLocal(catalog, changed: changed, since: before, adapter: configuration.adapter)
            }
            try follower.hand(CatalogIndexer.localChange(catalog, changed: changed, since: before))
        }
        let report: RecordsReport
        do {
            report = try importer.run(path: path, into: catalog)
            if let follower, try !follower.finish() { try indexer.ensureLocal(catalog, adapter: configuration.adapter) }
        } catch {
            bar.finish()
            _ = try? follower?.finish()
            throw error
        }
        bar.finish()
        if options.json { return try console.printJSON(Summary(report)) }
        ImportCommand.tell(
            report.lines.map { "line \($0.line): \($0.reason)" }, summary: report.summary, report: options.report,
            console: console)
        ImportCommand.noteAudience(options.visibility, photos: report.changed, console: console)
    }

    /// `--json`: the counts, and the skipped rows by line.
    private struct Summary: Encodable {
        let records, located, unlocated, changed, skipped: Int
        let report: [Line]

        struct Line: Encodable {
            let line: Int
            let reason: String
        }

        init(_ report: RecordsReport) {
            records = report.records
            located = report.located
            unlocated = report.unlocated
            changed = report.changed
            skipped = report.skipped
            self.report = report.lines.map { Line(line: $0.line, reason: $0.reason) }
        }
    }
}
