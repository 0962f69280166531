// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapSupport

/// `photomap import PATH...`: the user's own geotagged JPEG and HEIC photos into the local catalog.
enum ImportCommand {
    static let spec = CommandSpec(
        name: "import",
        summary: "read your own geotagged JPEG and HEIC photos into a local catalog (--source local)",
        discussion: """
            Reads every JPEG and HEIC file below the folders given (symbolic links followed): where and when
            each was taken, its title, artist and copyright from its EXIF, and a 75×75 square and a 500 px
            image made from one decode, kept in the thumbnail cache. Each located photo joins the nearest
            GeoNames place it lies within; the others are listed under "Without a location". Files unchanged
            since the last import are not read again. Originals are never copied, and no page or listing
            shows their paths. With --gpx, photos without GPS are then located from the tracks by their
            time, as `photomap geotag` does (see its --help). --gpx takes the file after it and every
            following word that ends in .gpx, so `import ~/Pictures --gpx ~/tracks/*.gpx` reads every track
            the shell finds; the first word that does not end in .gpx (or an option) is a PATH again:
            `import --gpx a.gpx b.gpx ~/Pictures`. A photo's XMP sidecar (IMG_1234.JPG.xmp or IMG_1234.xmp
            beside it, or in --sidecar-dir) is read too: its GPS wins over the file's, and a sidecar changed
            since the last import is read again. With --sidecars write, the locations tracks give are kept in
            the sidecars. Then `photomap --source local places|photos|export|serve` show them.
            """,
        options: [
            reportFlag.spec, pruneFlag.spec, dryRunFlag.spec, jsonFlag.spec, RecordsImport.option.spec,
            visibilityOption.spec,
        ] + TrackOptions.all + SidecarOptions.all,
        arguments: .words("PATH..."),
        examples: [
            .init("import ~/Pictures/2024-italy", "JPEG and HEIC below the folder, then --source local"),
            .init("import ~/Pictures/alps --gpx ~/tracks/*.gpx", "photos without GPS located from tracks"),
            .init("import --records export.csv --report", "another catalog's records; rows skipped, by line"),
        ])

    static let reportFlag = Flag("report", "list every file skipped or imported without a field, and why")
    static let pruneFlag = Flag("prune", "drop the photos whose files below the folders given are gone")
    static let dryRunFlag = Flag(
        "dry-run", "with --prune: say which photos would be dropped, and read and change nothing")
    static let jsonFlag = Flag("json", "print the counts and the report as a JSON object")
    /// `--visibility AUDIENCE`: who sees the photos an import adds (`photomap visibility` changes it).
    static let visibilityOption = Option<Audience>.choice(
        "visibility", "who sees the photos added, and where they were taken (default private, or PHOTOMAP_VISIBILITY)")

    /// What `import` was asked, decoded once.
    struct Options: CommandOptions {
        /// The folders and files to read.
        var paths: [String]
        /// `--records FILE`: records instead of photo files.
        var records: String?
        var report, prune, dryRun, json: Bool
        /// Who sees the photos added: --visibility, else PHOTOMAP_VISIBILITY, else private.
        var visibility = Audience.private
        var tracks: TrackOptions.Values
        var sidecars: SidecarOptions.Values

        init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
            paths = parsed.arguments
            records = try parsed.value(RecordsImport.option)
            (report, prune, dryRun, json) = (
                parsed.has(reportFlag), parsed.has(pruneFlag), parsed.has(dryRunFlag), parsed.has(jsonFlag)
            )
            tracks = try TrackOptions.Values(parsed)
            if records != nil {
                // Records set no location of a photo file: PHOTOMAP_SIDECARS is not theirs to read.
                sidecars = try SidecarOptions.Values(parsed, environment: [:])
                guard paths.isEmpty else {
                    throw UsageError("import --records FILE takes no folders: import them in a run of their own")
                }
                for (given, name) in [(prune, pruneFlag.name), (dryRun, dryRunFlag.name)] where given {
                    throw UsageError("--\(name) does not go with import --records")
                }
                if !tracks.gpxFiles.isEmpty {
                    throw UsageError("--\(TrackOptions.gpx.name) does not go with import --records")
                }
                visibility = try Self.visibility(parsed, environment: global.environment)
                return
            }
            guard !paths.isEmpty else { throw UsageError("import needs at least one folder or file") }
            if dryRun && !prune { throw UsageError("--dry-run goes with import --prune") }
            // A dry run reads no photo and writes nothing: the variables of what it would write are not read.
            let variables = dryRun ? [:] : global.environment
            sidecars = try SidecarOptions.Values(parsed, environment: variables)
            visibility = try Self.visibility(parsed, environment: variables)
        }

        /// --visibility, else PHOTOMAP_VISIBILITY, else private.
        private static func visibility(_ parsed: ParsedArguments, environment: [String: String]) throws(UsageError)
            -> Audience
        {
            if let given = try parsed.value(visibilityOption) { return given }
            guard let text = environment["PHOTOMAP_VISIBILITY"], !text.isEmpty else { return .private }
            return try visibilityOption.value(of: text, as: "PHOTOMAP_VISIBILITY")
        }
    }

    static func run(_ options: Options, configuration: Services, console: Console) throws {
        if let records = options.records {
            return try RecordsImport.run(records, options, configuration: configuration, console: console)
        }
        if options.dryRun { return try console.print(wouldPrune(options.paths, configuration: configuration)) }
        let geotagger = try options.tracks.geotagger(paths: options.tracks.gpxFiles)
        let importer = Importer(cache: try configuration.makeThumbnailCache(console: console), places: places)
        let bar = ProgressBar(console: console, label: "importing")
        var running = importer
        let audience = options.visibility
        running.privacy = PhotoPrivacy(visibility: audience)
        running.progress = { done, total in bar.update(done: done, total: total) }
        running.sidecars = options.sidecars.placement(roots: options.paths)
        let sidecars = options.sidecars.writer(roots: options.paths)
        var catalog = try configuration.state().localCatalogForImport()
        // The owner's view while importing: a private photo is found again, its sidecar read again.
        catalog.audiences = Set(Audience.allCases)
        let before = try catalog.version()
        let report = try running.run(
            roots: options.paths, prune: options.prune, into: catalog, geotagger: geotagger)
        bar.finish()
        // The folders given are noted in --sidecar-dir, for `locate` and `geotag` to mirror them too.
        try running.sidecars.recordRoots()
        if let sidecars {
            SidecarOptions.tell(try sidecars.write(report.changedPhotos, of: catalog), console: console)
        }
        // The search index follows the catalog now, rather than at the next search: the public view. The
        // photos written are indexed again, and the photos that went leave it by their ids.
        catalog.audiences = Audience.seen(by: nil)
        try CatalogIndexer(index: try configuration.state().index.open()).ensureLocal(
            catalog, changed: report.photosWritten, mayBeGone: report.photosMayBeGone, since: before,
            adapter: configuration.adapter)
        if options.json { return try console.printJSON(Summary(report)) }
        tell(
            report.lines.map { "\($0.path): \($0.reason)" }, summary: report.summary, report: options.report,
            console: console)
        noteAudience(audience, photos: report.photos, console: console)
    }

    /// Says who sees the photos read when that is not everyone: what anyone opens shows none of them.
    static func noteAudience(_ audience: Audience, photos: Int, console: Console) {
        guard audience != .public, photos > 0 else { return }
        console.note(
            "the photos read are \(audience.rawValue) (--visibility, PHOTOMAP_VISIBILITY): `export`, and `serve` to "
                + "anyone not signed in, show none of them; `photomap visibility --all public` shares them with everyone"
        )
    }

    /// The report's lines and its summary: --report prints the lines as data; --verbose tells them among
    /// the messages; otherwise the summary points to --report when there are any.
    static func tell(_ lines: [String], summary: String, report: Bool, console: Console) {
        for line in lines {
            if report { console.print(line) } else { console.detail(line) }
        }
        let told = report || console.verbosity == .verbose
        console.note("\(summary)\(lines.isEmpty || told ? "" : " (see --report)")")
    }

    /// What `import --prune --dry-run` says: the files of the catalog below `roots` that are gone, and the
    /// photos no other file holds, which --prune would drop. No file is read, nothing changes.
    static func wouldPrune(_ roots: [String], configuration: Services) throws -> String {
        guard let catalog = try configuration.state().importedPhotos() else { throw ImportError.nothingImported }
        // Absolute, as the catalog keeps them; paths as bytes (a name need not be UTF-8).
        let rootPaths = roots.map { Array(URL(fileURLWithPath: $0).standardizedFileURL.path.utf8) }
        let files = try catalog.files()
        let gone = Set(
            files.keys.filter { path in
                rootPaths.contains { root in
                    path == root
                        || (path.starts(with: root)
                            && (root.last == UInt8(ascii: "/") || path[root.count] == UInt8(ascii: "/")))
                } && !exists(path)
            })
        let kept = Set(files.filter { !gone.contains($0.key) }.compactMap(\.value.photo))
        let dropped = Set(gone.compactMap { files[$0]?.photo }).subtracting(kept)
        return "would drop \(Quantity.groupedWords(dropped.count, "photo", "photos")) "
            + "(\(Quantity.groupedWords(gone.count, "file", "files")) gone below the folders given); "
            + "nothing read or changed (--dry-run)"
    }

    /// Whether a file is at `path` (bytes, without the terminating NUL).
    private static func exists(_ path: [UInt8]) -> Bool {
        (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters in
                guard let start = characters.baseAddress else { return false }
                return access(start, F_OK) == 0
            }
        }
    }

    /// The places photos join: the gazetteer `find` uses, loaded when the first located photo needs it.
    @Sendable static func places() throws -> LocalPlaces {
        guard let fixtures = FixtureSource.locateFixtures(containing: "gazetteer/cities.tsv") else {
            throw LocationError.gazetteerMissing("Fixtures/gazetteer/cities.tsv")
        }
        return try LocalPlaces(gazetteer: fixtures.appendingPathComponent("gazetteer"))
    }

    /// `--json`: the counts, and the report's lines.
    private struct Summary: Encodable {
        let photos, located, unlocated, unreadable, unchanged, otherFiles, gone, goneKept, removedPhotos: Int
        let locatedFromTracks, locatedEstimated, skippedTrackPoints: Int
        let tracks: Int?
        let report: [[String: String]]

        init(_ report: ImportReport) {
            photos = report.photos
            located = report.located
            unlocated = report.unlocated
            unreadable = report.unreadable
            unchanged = report.unchanged
            otherFiles = report.otherFiles
            gone = report.gone
            goneKept = report.goneKept
            removedPhotos = report.removedPhotos
            locatedFromTracks = report.locatedFromTracks
            locatedEstimated = report.locatedEstimated
            skippedTrackPoints = report.skippedTrackPoints
            tracks = report.trackCount
            self.report = report.lines.map { ["path": $0.path, "reason": $0.reason] }
        }
    }
}
