// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// `photomap import --records FILE`: a records file's photos into the local catalog, in batches of
/// `batchSize`, each one transaction (so memory stays bounded however long the file, and a batch that
/// changes nothing writes nothing). Each located record is placed once by `LocalPlaces`, as import's
/// photos are; `committed` then hands the batch's changed photos on (the search index follows them).
public struct RecordsImporter {
    /// The places photos are grouped into, loaded when a located record needs one.
    public let places: () throws -> LocalPlaces
    /// Records a transaction.
    public var batchSize = 10_000
    /// Who sees the photos the file adds, and where they were taken (those there already keep theirs).
    public var privacy = PhotoPrivacy(visibility: .private)
    /// Told how much of the file is read (bytes of CSV, features of GeoJSON), and how many rows, on the
    /// reading thread.
    public var progress: (_ done: Int, _ total: Int, _ rows: Int) -> Void = { _, _, _ in }
    /// Given each batch's changed photos and the catalog's version just before the batch.
    public var committed: (_ changed: [Photo], _ versionBefore: Int) throws -> Void = { _, _ in }

    /// At most this many skipped rows are named in the report; the rest are counted.
    static let maximumLines = 100_000

    /// An importer placing photos with `places`.
    public init(places: @escaping () throws -> LocalPlaces) {
        self.places = places
    }

    /// Reads the records file at `path` into `catalog`; throws `RecordsError` before anything is written
    /// for a file that is no records file. The file is read, and its records made photos (placed, encoded),
    /// on a thread of its own a batch ahead of the catalog's writes.
    public func run(path: String, into catalog: any LocalCatalogStore) throws -> RecordsReport {
        var changed = 0
        var report = try Handoff.run(produce: { hand in try read(path: path, batches: hand) }) { batch in
            let before = try catalog.version()
            let written = try catalog.keepRecords(batch, privacy: privacy)
            changed += written.count
            if !written.isEmpty { try committed(written, before) }
        }
        report.changed = changed
        return report
    }

    /// Reads the file at `path`, handing its records to `batches` as photos, `batchSize` at a time.
    private func read(path: String, batches: ([RecordPhoto]) throws -> Void) throws -> RecordsReport {
        var report = RecordsReport()
        var batch: [RecordPhoto] = []
        batch.reserveCapacity(batchSize)
        var loaded: LocalPlaces?
        var rows = 0
        try RecordsFile.read(path: path, progress: { progress($0, $1, rows) }) { line, result in
            rows += 1
            switch result {
            case .failure(let problem):
                report.skipped += 1
                if report.lines.count < Self.maximumLines { report.lines.append((line, problem.description)) }
            case .success(let record):
                var place = LocalPlace.unlocated
                if let coordinate = record.coordinate {
                    if loaded == nil { loaded = try places() }
                    place = loaded?.place(for: coordinate) ?? place
                    report.located += 1
                } else {
                    report.unlocated += 1
                }
                var photo = RecordPhoto(record, place: place)
                try photo.encode()
                batch.append(photo)
                if batch.count >= batchSize {
                    try batches(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        if !batch.isEmpty { try batches(batch) }
        return report
    }
}

/// What a records import did.
public struct RecordsReport: Sendable {
    /// Records read with a location, and without one.
    public var located = 0, unlocated = 0
    /// Of them, the photos added or changed (the rest were in the catalog as they are).
    public var changed = 0
    /// Rows skipped.
    public var skipped = 0
    /// The skipped rows by the line they start on (the header is line 1), and why; at most
    /// `RecordsImporter.maximumLines` of them.
    public var lines: [(line: Int, reason: String)] = []

    /// Records read.
    public var records: Int { located + unlocated }

    /// "1,000 records read, 990 located, 10 without a location, 1,000 added or changed, 3 rows skipped".
    public var summary: String {
        var parts = [
            Quantity.groupedWords(records, "record", "records") + " read",
            Quantity.grouped(located) + " located", Quantity.grouped(unlocated) + " without a location",
            Quantity.grouped(changed) + " added or changed",
        ]
        if skipped > 0 { parts.append(Quantity.groupedWords(skipped, "row", "rows") + " skipped") }
        return parts.joined(separator: ", ")
    }
}
