// SPDX-License-Identifier: Apache-2.0
import CSystem
import Foundation
import PhotoMapKit
import PhotoMapSupport

/// `photomap geotag --gpx FILE...`: locates imported photos without GPS from GPX tracks, by the clock
/// times the catalog keeps; no image is read.
enum GeotagCommand {
    static let spec = CommandSpec(
        name: "geotag",
        summary: "locate imported photos without GPS from GPX tracks, by their time (no image read)",
        discussion: """
            Matches each imported photo without GPS of its own to the track points of the GPX files given
            (--gpx FILE, and any more FILEs after it), as `exiftool -geotag` does with its defaults: the
            photo's DateTimeOriginal (with SubSecTimeOriginal) in its OffsetTimeOriginal zone, else in
            --timezone, plus --clock-offset; between two fixes at most --max-gap seconds apart, the point in
            between; otherwise the nearest fix if it is at most --max-gap away. A photo's own GPS is never
            replaced; one located from a track (or estimated) before moves when these tracks place it
            elsewhere, and one these tracks placed before (with another --timezone or --clock-offset) that they
            no longer reach loses its location. The summary says why photos stayed without a location (taken
            before the first fix, after the last, in a gap, without a time) and which zone or clock offset
            would place them; --report names each photo and its reason. With --estimate-within MINUTES, a
            photo still without a location then takes that of the photo from the same camera (EXIF Make and
            Model) nearest in time with a location of its own or from a track, if that close (never from
            another estimate). Located photos join their places as imported ones do. Waypoints and routes are not tracks; bad track points are
            skipped and counted. A track file that cannot be read stops the command before anything changes.
            """,
        options: TrackOptions.all + [reportFlag.spec, jsonFlag.spec] + SidecarOptions.all,
        arguments: .words("FILE..."),
        examples: [
            .init("geotag --gpx ~/tracks/late.gpx --timezone Europe/Ljubljana", "locate imported photos from a track"),
            .init("geotag day.gpx --clock-offset -75", "the camera's clock was 75 s fast"),
        ])

    static let reportFlag = Flag(
        "report", "list every track point skipped, and every photo left without a location, and why")
    static let jsonFlag = Flag("json", "print the counts and the report as a JSON object")

    /// What `geotag` was asked, decoded once.
    struct Options: CommandOptions {
        /// The GPX files: those of --gpx, then the arguments.
        var paths: [String]
        var tracks: TrackOptions.Values
        var sidecars: SidecarOptions.Values
        var report, json: Bool

        init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
            tracks = try TrackOptions.Values(parsed)
            paths = tracks.gpxFiles + parsed.arguments
            guard !paths.isEmpty || tracks.estimateWithin != nil else {
                throw UsageError("geotag needs at least one GPX file (--gpx FILE) or --estimate-within MINUTES")
            }
            sidecars = try SidecarOptions.Values(parsed, environment: global.environment)
            (report, json) = (parsed.has(reportFlag), parsed.has(jsonFlag))
        }
    }

    static func run(_ options: Options, configuration: Services, console: Console) throws {
        guard let geotagger = try options.tracks.geotagger(paths: options.paths) else {
            throw UsageError("geotag needs at least one GPX file (--gpx FILE) or --estimate-within MINUTES")
        }
        let sidecars = options.sidecars.writer(roots: [])
        let catalog = try configuration.state().localCatalogForImport()
        let before = try catalog.version()
        guard before > 0 else { throw ImportError.nothingImported }
        let report = try geotagger.run(on: catalog, places: ImportCommand.places)
        // The place data (about 45 MB) is freed by now, but glibc keeps freed heap resident; handing it
        // back before the index's mapped pages come in keeps the peak to the naming's own.
        malloc_trim(0)
        // Only the photos that moved are indexed again (the index held the catalog as it was before).
        try CatalogIndexer(index: configuration.state().index.open()).ensureLocal(
            catalog, changed: report.changedPhotos, since: before, adapter: configuration.adapter)
        if let sidecars { SidecarOptions.tell(try sidecars.write(report.changedPhotos, of: catalog), console: console) }
        if options.json { return try console.printJSON(Summary(report)) }
        if options.report {
            for line in report.skipped { console.print("\(line.place): \(line.reason)") }
            for (id, miss) in report.missed {
                console.print("\(try catalog.paths(ofPhoto: id).first ?? id): \(miss.reason)")
            }
        }
        var summary =
            "\(Quantity.groupedWords(report.unlocatedBefore, "photo", "photos")) without a location, "
            + "\(Quantity.grouped(report.located.count)) located from "
            + Quantity.groupedWords(report.trackCount, "track", "tracks")
        if geotagger.estimateWithin != nil {
            summary += ", \(Quantity.grouped(report.estimated.count)) estimated from neighbours"
        }
        if report.relocated > 0 { summary += ", \(Quantity.grouped(report.relocated)) moved" }
        if report.cleared > 0 {
            summary += ", \(Quantity.groupedWords(report.cleared, "lost its location", "lost their location"))"
        }
        if !report.skipped.isEmpty {
            summary += ", \(Quantity.groupedWords(report.skipped.count, "track point", "track points")) skipped"
        }
        let hint = report.skipped.isEmpty || options.report ? "" : " (see --report)"
        console.note("\(summary) (no image read)\(hint)")
        for line in GeotagMisses.lines(report) { console.note(line) }
    }

    /// `--json`: the counts, and the points skipped.
    private struct Summary: Encodable {
        let unlocatedBefore, located, estimated, relocated, cleared, tracks: Int
        let report: [[String: String]]
        /// Each photo the tracks left without a location, and why.
        let missed: [[String: String]]

        init(_ report: PhotoGeotagger.Report) {
            unlocatedBefore = report.unlocatedBefore
            located = report.located.count
            estimated = report.estimated.count
            relocated = report.relocated
            cleared = report.cleared
            missed = report.missed.map { ["photo": $0.id, "reason": $0.miss.reason] }
            tracks = report.trackCount
            self.report = report.skipped.map { ["place": $0.place, "reason": $0.reason] }
        }
    }
}
