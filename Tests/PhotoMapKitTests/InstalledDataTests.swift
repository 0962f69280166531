// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("Installed data")
struct InstalledDataTests {
    /// A package's tree unpacked into a folder: `usr/bin/photomap` and `usr/share/photomap/…`.
    private func unpackedPackage() throws -> (root: TemporaryFolder, executable: String, data: URL) {
        let root = try TemporaryFolder()
        let data = root.url.appendingPathComponent("usr/share/photomap")
        let files =
            ["catalog/top-places.json", "basemap/countries.js", "gazetteer/cities.tsv"]
            + PageAssets.ownFiles.map { "assets/\($0)" }
        for file in files {
            let url = data.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
        return (root, root.url.appendingPathComponent("usr/bin/photomap").path, data.standardizedFileURL)
    }

    @Test("from PATH with no checkout around: the data is found under the binary's prefix, share/photomap")
    func besideTheBinary() throws {
        let (root, executable, data) = try unpackedPackage()
        defer { _ = root }
        #expect(
            FixtureSource.locateCatalog(environment: [:], executable: executable, currentDirectory: "/")?
                .standardizedFileURL.path == data.appendingPathComponent("catalog").path)
        #expect(
            FixtureSource.locateFixtures(
                containing: "gazetteer/cities.tsv", executable: executable, currentDirectory: "/")?
                .standardizedFileURL.path == data.path)
        let assets = try PageAssets.locate(
            environment: ["PHOTOMAP_LEAFLET_DIR": try leafletFolder().path], executable: executable,
            currentDirectory: "/")
        // A build's own resources (the test runner's bundle) come first; an installed binary has none.
        let candidates = PageAssets.ownFolderCandidates(environment: [:], executable: executable)
        #expect(candidates.last?.path == "/usr/share/photomap/assets")
        #expect(candidates.dropLast().last?.standardizedFileURL.path == data.appendingPathComponent("assets").path)
        #expect(assets.basemap.standardizedFileURL.path == data.appendingPathComponent("basemap/countries.js").path)
    }

    @Test("/usr/bin/photomap looks in /usr/share/photomap; any other prefix looks there after its own")
    func folders() {
        #expect(InstalledData.folders(executable: "/usr/bin/photomap").map(\.path) == ["/usr/share/photomap"])
        #expect(
            InstalledData.folders(executable: "/opt/pm/bin/photomap").map(\.path) == [
                "/opt/pm/share/photomap", "/usr/share/photomap",
            ])
    }

    @Test("a binary run by its name alone, found on PATH, is found by the kernel's /proc/self/exe")
    func executableFromPath() {
        let found = InstalledData.executableURL("photomap")
        #expect(found.path.hasPrefix("/") && found.lastPathComponent != "photomap")
        #expect(FileManager.default.isExecutableFile(atPath: found.path))
    }

    @Test("a checkout comes first: a build run from one uses its own Fixtures")
    func checkoutFirst() {
        let executable = LoopbackServer.repositoryRoot.appendingPathComponent(".build/release/photomap").path
        #expect(
            FixtureSource.locateCatalog(environment: [:], executable: executable, currentDirectory: "/")?
                .standardizedFileURL.path
                == LoopbackServer.repositoryRoot.appendingPathComponent("Fixtures/catalog").standardizedFileURL.path)
    }

    @Test("nothing installed and no checkout: no catalog, rather than a guess")
    func nothing() throws {
        let root = try TemporaryFolder()
        let executable = root.url.appendingPathComponent("bin/photomap").path
        if !FileManager.default.fileExists(atPath: "/usr/share/photomap/catalog/top-places.json") {
            #expect(FixtureSource.locateCatalog(environment: [:], executable: executable, currentDirectory: "/") == nil)
        }
    }

    /// Debian's Leaflet (the tests' dependencies install it), or a stand-in holding its file names.
    private func leafletFolder() throws -> URL {
        let debian = URL(fileURLWithPath: PageAssets.debianLeafletFolder)
        if PageAssets.leafletFiles.allSatisfy({
            FileManager.default.fileExists(atPath: debian.appendingPathComponent($0).path)
        }) {
            return debian
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("leaflet-\(UUID().uuidString)")
        for file in PageAssets.leafletFiles {
            let url = folder.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
        return folder
    }
}
