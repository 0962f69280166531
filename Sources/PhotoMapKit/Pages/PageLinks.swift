// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// Where a page's links point. Export and `--map` write images and pages into a folder and link them
/// relatively (`FolderLinks`); `photomap serve` links its own routes (`ServedLinks`). Everything
/// else about a page is built once, by `PageBuilder`, the same for both.
public protocol PagePaths {
    /// The assets folder, as a site path.
    var assets: String { get }
    /// Whether pages may call the server's API (the search box): only served pages.
    var servesAPI: Bool { get }
    /// A place's photos page, as a site path.
    func placePage(_ place: Place) -> String
    /// A photo's page, as a site path.
    func photoPage(_ photo: Photo) -> String
    /// The index of trips, as a site path.
    var tripsIndex: String { get }
    /// A trip's page (its id, "YYYY-MM-DD"), as a site path.
    func tripPage(_ id: String) -> String
    /// The page of the places you have been, as a site path.
    var visitedIndex: String { get }
    /// A country's or a region's photos page (its `VisitedPlace.pageID`), as a site path.
    func visitedPage(_ id: String) -> String
    /// The site path `target` as the page at `page` links it.
    func link(from page: String, to target: String) -> String
}

/// Page paths and where each photo's images are, which may place them first (`FolderLinks`).
public protocol PageLinks: PagePaths {
    /// A photo's image of `size` as a site path, or nil when there is none to show (the page shows
    /// the placeholder).
    func image(of photo: Photo, size: PhotoSize) throws -> String?
}

/// The paths of a folder's pages, without its images: what a page whose images were placed already
/// needs, on any thread.
public struct FolderPaths: PagePaths, Sendable {
    /// Where the site's own folders go.
    let prefix: String

    public var assets: String { prefix + "assets" }
    public var servesAPI: Bool { false }

    public func placePage(_ place: Place) -> String { prefix + "places/\(HTML.fileName(for: place.id)).html" }

    public func photoPage(_ photo: Photo) -> String { prefix + "photos/\(HTML.fileName(for: photo.id)).html" }

    public var tripsIndex: String { prefix + "trips/index.html" }

    public func tripPage(_ id: String) -> String { prefix + "trips/\(HTML.fileName(for: id)).html" }

    public var visitedIndex: String { prefix + "visited.html" }

    public func visitedPage(_ id: String) -> String { prefix + "visited/\(HTML.fileName(for: id)).html" }

    public func link(from page: String, to target: String) -> String {
        SiteWriter.link(from: page, to: target)
    }
}

/// Links between files of one folder: images placed in from the image store (only those it holds),
/// relative links that work from disk. `prefix` is where the site's own folders go: "" for `export`,
/// "paris_files/" for a map page written as paris.html.
public struct FolderLinks: PageLinks {
    let writer: SiteWriter
    let images: any ImageStore
    /// The pages' paths, which images are placed beside.
    let paths: FolderPaths
    var prefix: String { paths.prefix }

    /// Links inside `writer`'s folder, images from `images`.
    public init(writer: SiteWriter, images: any ImageStore, prefix: String) {
        self.writer = writer
        self.images = images
        paths = FolderPaths(prefix: prefix)
    }

    public var assets: String { paths.assets }
    public var servesAPI: Bool { false }

    public func placePage(_ place: Place) -> String { paths.placePage(place) }

    public func photoPage(_ photo: Photo) -> String { paths.photoPage(photo) }

    public var tripsIndex: String { paths.tripsIndex }

    public func tripPage(_ id: String) -> String { paths.tripPage(id) }

    public var visitedIndex: String { paths.visitedIndex }

    public func visitedPage(_ id: String) -> String { paths.visitedPage(id) }

    /// The image in the site as `{squares|images}/{image name}.{png|jpg}`: the one placed there before
    /// when it is still there (even if the store has evicted it since), else the store's file placed
    /// now (`SiteWriter.placeImages`); nil when neither has it.
    public func image(of photo: Photo, size: PhotoSize) throws -> String? {
        try writer.image(of: photo, size: size) { try placeImages(of: [photo], sizes: [size]).first ?? nil }
    }

    /// Places the images of `sizes` of `photos` as `image(of:size:)` does, many at once
    /// (`SiteWriter.placeImages`); the path of each (photo by photo, size by size), nil where there is none.
    @discardableResult
    func placeImages(of photos: some Sequence<Photo>, sizes: [PhotoSize]) throws -> [String?] {
        let jobs = imageJobs(of: photos, sizes: sizes)
        var paths = [String?](repeating: nil, count: jobs.count)
        let slots = jobs.indices.filter { jobs[$0] != nil }
        for (slot, path) in zip(slots, try writer.placeImages(jobs.compactMap { $0 }, from: images)) {
            paths[slot] = path
        }
        return paths
    }

    /// The image of each of `sizes` of each of `photos` (photo by photo, size by size) to place, nil for a
    /// photo with no image of that size to fetch.
    func imageJobs(of photos: some Sequence<Photo>, sizes: [PhotoSize]) -> [SiteWriter.ImageJob?] {
        let photos = Array(photos), images = images, prefix = prefix
        // Made on every core: a name is its URL's digest.
        return [SiteWriter.ImageJob?](
            count: photos.count * sizes.count,
            madeOnEveryCore: { slot in
                let photo = photos[slot / sizes.count], size = sizes[slot % sizes.count]
                return images.imageName(of: photo, size: size).map {
                    SiteWriter.ImageJob(photo: photo, size: size, stem: Self.imageStem($0, size: size, prefix: prefix))
                }
            })
    }

    /// Where an image goes in the site, without its extension: `{squares|images}/{image name}`.
    private static func imageStem(_ name: String, size: PhotoSize, prefix: String) -> String {
        prefix + (size.squareSide == nil ? "images/" : "squares/") + name
    }

    public func link(from page: String, to target: String) -> String {
        paths.link(from: page, to: target)
    }
}
