// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// `--map [FILE]` on listings: writes the listing as a map page, FILE.html beside a FILE_files/ folder
/// holding its assets, squares and (for photos) photo pages.
enum MapOutput {
    static let option = Option<String>.optionalValue(
        "map", .file("FILE"), "also write a map page (default name: photomap-….html); prints its path")

    /// The page's file when `--map` was given: FILE, or `defaultName` in the current folder.
    static func file(_ parsed: ParsedArguments, defaultName: String) throws(UsageError) -> URL? {
        guard let value = try parsed.value(option) else { return nil }
        var name = value.isEmpty ? defaultName : value
        if !name.lowercased().hasSuffix(".html") && !name.lowercased().hasSuffix(".htm") { name += ".html" }
        return URL(fileURLWithPath: name)
    }

    /// A builder for a page at `file`, images placed from `images`: its own folders under "{stem}_files/";
    /// its records come from the configured source and `alsoFrom`.
    static func builder(
        for file: URL, images: any ImageStore, configuration: Services,
        alsoFrom sources: Set<PageCredits.Source> = []
    ) throws -> (SiteBuilder, SiteWriter) {
        let writer = SiteWriter(root: file.deletingLastPathComponent())
        let stem = file.deletingPathExtension().lastPathComponent
        return (
            try siteBuilder(
                writer: writer, prefix: "\(stem)_files/", images: images, configuration: configuration,
                alsoFrom: sources), writer
        )
    }

    /// A site builder over `writer`, images placed from `images`, crediting the configured source and
    /// `alsoFrom`; PHOTOMAP_CLUSTER_THRESHOLD overrides when pages are clustered ahead of time.
    static func siteBuilder(
        writer: SiteWriter, prefix: String, images: any ImageStore, configuration: Services,
        alsoFrom sources: Set<PageCredits.Source> = []
    ) throws -> SiteBuilder {
        var builder = SiteBuilder(
            writer: writer, assets: try PageAssets.locate(environment: configuration.options.environment),
            images: images, prefix: prefix)
        builder.credits = PageCredits(configuration.pageSources.union(sources))
        builder.catalogMirror = configuration.catalogMirror
        builder.tracks = try configuration.trackLines()
        if let threshold = configuration.options.environment["PHOTOMAP_CLUSTER_THRESHOLD"].flatMap(Int.init) {
            builder.clusterThreshold = threshold
        }
        return builder
    }

    /// Reports the page written, on stderr so that stdout stays the listing.
    static func report(_ file: URL, writer: SiteWriter, console: Console) {
        console.note(
            "map written to \(file.path) (\(writer.written) files written, \(writer.unchanged) unchanged)")
    }
}
