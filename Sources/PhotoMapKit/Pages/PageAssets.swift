// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// The files every page loads, copied into the site's `assets/` folder when it is written:
/// Leaflet from Debian's package (never committed), photomap's own script,
/// style and placeholder (beside the binary), and the Natural Earth basemap (from Fixtures/basemap).
public struct PageAssets: Sendable {
    /// Where Debian installs Leaflet.
    public static let debianLeafletFolder = "/usr/share/javascript/leaflet"

    /// The Leaflet files the pages use, by their path in the Leaflet folder (photomap clusters
    /// markers itself: Leaflet.markercluster took seconds to place 10,000).
    static let leafletFiles = [
        "leaflet.min.js", "leaflet.css", "images/layers.png", "images/layers-2x.png", "images/marker-icon.png",
        "images/marker-icon-2x.png",
        "images/marker-shadow.png",
    ]
    /// photomap's page scripts, in the order the pages run them (deferred, after Leaflet): each adds
    /// one part to their shared `window.photomap`, and `photomap.js`, last, starts the page.
    static let scripts = [
        "photomap-page.js", "photomap-elements.js", "photomap-timeline.js", "photomap-callout.js", "photomap-grid.js",
        "photomap-coasts.js", "photomap-basemap.js", "photomap-tracks.js", "photomap-clusters.js", "photomap-heat.js",
        "photomap-map.js",
        "photomap-list.js", "photomap-search.js", "photomap-edit-changes.js", "photomap-edit-spot.js",
        "photomap-edit.js", "photomap-edit-many.js", "photomap-edit-world.js", "photomap-trip.js",
        "photomap-visited.js",
        "photomap.js",
    ]
    /// photomap's own files.
    static let ownFiles = scripts + ["first-view.js", "photomap.css", "placeholder.svg", "favicon.svg"]

    let leafletFolder: URL
    let ownFolder: URL
    let basemap: URL

    /// Finds the three sources; throws with what to install when one is missing.
    public static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: String = CommandLine.arguments.first ?? "",
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(PageError) -> PageAssets {
        let leaflet = URL(fileURLWithPath: environment["PHOTOMAP_LEAFLET_DIR"] ?? debianLeafletFolder)
        guard
            leafletFiles.allSatisfy({
                FileManager.default.fileExists(atPath: leaflet.appendingPathComponent($0).path)
            })
        else {
            throw .leafletMissing(folder: leaflet.path)
        }
        guard
            let own = ownFolderCandidates(environment: environment, executable: executable).first(where: { folder in
                ownFiles.allSatisfy { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
            })
        else { throw .assetsMissing("photomap's page assets (photomap_PhotoMapKit.resources)") }
        guard
            let basemap = FixtureSource.locateFixtures(
                containing: "basemap/countries.js", executable: executable, currentDirectory: currentDirectory)
        else {
            throw .assetsMissing("the basemap Fixtures/basemap/countries.js")
        }
        return PageAssets(
            leafletFolder: leaflet, ownFolder: own,
            basemap: basemap.appendingPathComponent("basemap/countries.js"))
    }

    /// Where photomap's own files may be, in order: `PHOTOMAP_ASSETS`; the folder SwiftPM copies the
    /// target's resources to beside the executable (a build); the package's `assets/` in its data folder.
    static func ownFolderCandidates(environment: [String: String], executable: String) -> [URL] {
        let executableFolder = InstalledData.executableURL(executable).deletingLastPathComponent()
        return [
            environment["PHOTOMAP_ASSETS"].map(URL.init(fileURLWithPath:)),
            executableFolder.appendingPathComponent("photomap_PhotoMapKit.resources/Assets"),
            Bundle.main.bundleURL.appendingPathComponent("photomap_PhotoMapKit.resources/Assets"),
        ].compactMap { $0 } + InstalledData.folders(executable: executable).map { $0.appendingPathComponent("assets") }
    }

    /// Every asset: its name in the assets folder, and the file it comes from.
    public var files: [(name: String, source: URL)] {
        Self.leafletFiles.map { ($0, leafletFolder.appendingPathComponent($0)) }
            + Self.ownFiles.map { ($0, ownFolder.appendingPathComponent($0)) }
            + [("countries.js", basemap)]
    }

    /// The digest of every asset's name and contents: pages are made again when it changes.
    public var version: String {
        let inputs = InputDigest()
        for file in files {
            inputs.add(file.name)
            inputs.add((try? Data(contentsOf: file.source)).map { SHA256.hex($0) })
        }
        return inputs.finish()
    }

    /// Copies every asset into `folder` (relative to the writer's root), skipping unchanged ones.
    public func copy(into writer: SiteWriter, folder: String) throws(PageError) {
        for file in files { try writer.copy(file.source, to: "\(folder)/\(file.name)") }
    }
}
