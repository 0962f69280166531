// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// The embedded catalog as a photo source: no network, no API key.
/// Its image URLs name Flickr's image host; with another host configured (a local mirror of
/// `Fixtures/images`), they are rewritten to it.
public struct FixtureSource: PhotoSource, PlaceDescribing, PhotoDescribing {
    /// The most photos one listing of the catalog gives.
    public static let maximumResults = 1_000_000

    private let source: FlickrSource

    /// Creates a source over the catalog folder, serving images from `imageHost`.
    public init(catalog: URL, imageHost: ImageHost = .flickr) {
        // The embedded catalog has no 4,000-result cap: generated catalogs test larger places.
        source = FlickrSource(
            transport: FixtureTransport(catalog: catalog), resultCap: Self.maximumResults,
            adapter: AnnotationAdapter(imageHost: imageHost), imageMirror: imageHost)
    }

    /// The catalog's top places.
    public func topPlaces() throws -> Listing<Place> {
        try source.topPlaces()
    }

    /// One of the catalog's places, answered as flickr.places.getInfo answers.
    public func placeInfo(_ placeID: String) throws -> Place {
        try source.placeInfo(placeID)
    }

    /// One of the catalog's photos, answered as flickr.photos.getInfo answers.
    public func photoInfo(_ photoID: String) throws -> AnnotatedPhoto? {
        try source.photoInfo(photoID)
    }

    /// The licences the catalog's photos carry: its copy of Flickr's list.
    public func licenses() throws -> [String: License] {
        try source.licenses()
    }

    /// The catalog's photos of a place, image URLs on the configured host, told to `arriving` page by page.
    public func photos(
        inPlace placeID: String, limit: Int,
        arriving: (ArraySlice<AnnotatedPhoto>) -> Void
    ) throws -> Listing<Photo> {
        try source.photos(inPlace: placeID, limit: limit, arriving: arriving)
    }

    /// The catalog folder: `$PHOTOMAP_FIXTURES`, else `Fixtures/catalog` in a folder above the
    /// executable (a checkout's `.build/release/photomap`) or above the current directory, else an
    /// installed copy (`/usr/share/photomap/catalog`).
    public static func locateCatalog(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: String = CommandLine.arguments.first ?? "",
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> URL? {
        if let explicit = environment["PHOTOMAP_FIXTURES"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        return locateFixtures(
            containing: "catalog/top-places.json",
            executable: executable, currentDirectory: currentDirectory)?.appendingPathComponent("catalog")
    }

    /// The `Fixtures` folder holding `file`, in a folder above the executable or the current directory;
    /// else the installed data folder holding it (see ``InstalledData``). A checkout comes first, so a
    /// build run from one uses its own data even where the package is installed.
    public static func locateFixtures(
        containing file: String,
        executable: String = CommandLine.arguments.first ?? "",
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> URL? {
        let executableFolder = InstalledData.executableURL(executable).deletingLastPathComponent()
        let currentFolder = URL(fileURLWithPath: currentDirectory)
        for start in [executableFolder, currentFolder] {
            var folder = start.standardizedFileURL
            while true {
                let fixtures = folder.appendingPathComponent("Fixtures")
                if FileManager.default.fileExists(atPath: fixtures.appendingPathComponent(file).path) {
                    return fixtures
                }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        return InstalledData.folders(executable: executable).first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent(file).path)
        }
    }
}
