// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport

/// `photomap recent`: the photos most recently viewed through `photomap serve`.
enum RecentCommand {
    static let spec = CommandSpec(
        name: "recent",
        summary: "list the photos recently viewed with photomap serve",
        discussion: """
            Lists the photos whose pages were opened through `photomap serve`, most recent first (at most
            \(RecentPhotos.capacity)), as `photos` lists a place's. They are kept in the cache folder (or the
            --database), shared by every photomap using it.
            """,
        options: AnnotationOutput.options + [MapOutput.option.spec],
        examples: [
            .init("recent", "the photos last viewed through serve"),
            .init("recent --map recent.html", "the same on a map page"),
        ])

    static func run(_ options: ListingOptions, configuration: Services, console: Console) throws {
        let destination = options.destination
        let photos = try configuration.state().recents.photos()
        // Kept as records: annotated once here, for the listing and the page.
        let listing = Listing(entries: configuration.adapter.annotated(photos))
        try PhotosCommand.write(
            listing, to: destination, title: "Recently viewed", configuration: configuration,
            console: console, footer: Quantity.words(photos.count, "recently viewed photo", "recently viewed photos"))
        if let file = options.map {
            let cache = try configuration.makeThumbnailCache(console: console)
            let (builder, writer) = try MapOutput.builder(for: file, images: cache, configuration: configuration)
            let images = Prefetcher.pageImages(cache: cache, console: console)
            images.add(photos)
            try images.wait()
            try builder.writeAssets()
            try builder.writePhotosPage(
                at: file.lastPathComponent, title: "Recently viewed",
                subtitle: Quantity.words(photos.count, "photo", "photos"),
                photos: listing.entries, back: nil, defaultView: "list")
            MapOutput.report(file, writer: writer, console: console)
        }
    }
}
