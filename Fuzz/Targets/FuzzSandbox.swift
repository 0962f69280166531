// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// A folder of the fuzz run's own: a small catalog and gazetteer cut from the repository's Fixtures
/// (so that one input runs in milliseconds, and every input sees the same data), a cache folder and
/// a working folder. Made once per process, in the temporary folder (`scripts/fuzz` gives each run
/// one of its own); a process that re-executes itself from the sandbox (`runFromInside`) finds it made.
struct FuzzSandbox: Sendable {
    /// Places of the embedded catalog kept: two names shared with other cities (Portland, Córdoba),
    /// accents, landmarks, the hostile titles and descriptions (Berlin, Lisbon) and a video (Lisbon).
    static let placeIDs = [
        "GUxp_EgQ0EkOnY5Cq0", "Pl2joxq8zgPsQPTa1u7", "CTUuhTIRnlu09x0F", "yjZViTj17fo6BbLk",
        "TKRzEzSrM_ORpMOe",
    ]
    /// Cities of the gazetteer kept, by name (every city of that name): ambiguous ones and accented ones.
    static let cityNames: Set<String> = [
        "Portland", "Córdoba", "Reykjavík", "Berlin", "Lisbon", "Paris", "London",
        "Springfield", "San José", "Moscow", "Zürich", "São Paulo", "Kraków",
        "Montréal", "New York City",
    ]

    /// The sandbox folder.
    let root: URL

    var fixtures: URL { root.appendingPathComponent("Fixtures") }
    var catalog: URL { fixtures.appendingPathComponent("catalog") }
    var gazetteerFolder: URL { fixtures.appendingPathComponent("gazetteer") }
    var cache: URL { root.appendingPathComponent("cache") }
    var work: URL { root.appendingPathComponent("work") }
    var images: URL { fixtures.appendingPathComponent("images") }

    /// The process's sandbox.
    static let shared: FuzzSandbox = {
        do {
            return try FuzzSandbox()
        } catch {
            FileHandle.standardError.write(Data("photomap-fuzz: cannot make the sandbox: \(error)\n".utf8))
            exit(1)
        }
    }()

    private init() throws {
        guard let fixtures = FixtureSource.locateFixtures(containing: "gazetteer/cities.tsv") else {
            let reason = "the repository's Fixtures folder is not above the binary"
            throw CocoaError(.fileNoSuchFile, userInfo: [NSDebugDescriptionErrorKey: reason])
        }
        root = FileManager.default.temporaryDirectory.appendingPathComponent("photomap-fuzz-\(getpid())")
        guard !FileManager.default.fileExists(atPath: root.path) else { return }
        let manager = FileManager.default
        for folder in [catalog.appendingPathComponent("photos"), gazetteerFolder, cache, work] {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try writeCatalog(from: fixtures.appendingPathComponent("catalog"))
        try writeGazetteer(from: fixtures.appendingPathComponent("gazetteer"))
        for shared in ["images", "basemap"] {
            try manager.createSymbolicLink(
                at: self.fixtures.appendingPathComponent(shared),
                withDestinationURL: fixtures.appendingPathComponent(shared))
        }
    }

    /// Runs this process again from a copy of its executable inside the sandbox, unless it runs from
    /// there already: photomap finds its gazetteer and basemap in a Fixtures folder above its
    /// executable, and must find the sandbox's small one (the repository's takes seconds to load).
    func runFromInside() {
        let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let inside = root.appendingPathComponent("bin").appendingPathComponent(own.lastPathComponent)
        guard own.path != inside.path else { return }
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: inside.deletingLastPathComponent(), withIntermediateDirectories: true)
            if link(own.path, inside.path) != 0 { try manager.copyItem(at: own, to: inside) }
            // The pages' own assets sit beside the executable.
            let resources = "photomap_PhotoMapKit.resources"
            try manager.createSymbolicLink(
                at: inside.deletingLastPathComponent().appendingPathComponent(resources),
                withDestinationURL: own.deletingLastPathComponent().appendingPathComponent(resources))
        } catch {
            propertyFailed("cannot place the executable in the sandbox: \(error)")
        }
        // photomap looks above argv[0], which must name the copy too.
        var arguments: [UnsafeMutablePointer<CChar>?] =
            ([inside.path] + CommandLine.arguments.dropFirst()).map { strdup($0) } + [nil]
        execv(inside.path, &arguments)
        propertyFailed("cannot run \(inside.path): \(String(cString: strerror(errno)))")
    }

    /// The kept places' answers, recorded pages and landmarks; the licences as they are.
    private func writeCatalog(from source: URL) throws {
        let manager = FileManager.default
        let keep = Set(Self.placeIDs)
        let topFile = source.appendingPathComponent("top-places.json")
        var top = try JSONSerialization.jsonObject(with: Data(contentsOf: topFile)) as? [String: Any] ?? [:]
        var places = top["places"] as? [String: Any] ?? [:]
        let kept = (places["place"] as? [[String: Any]] ?? []).filter { keep.contains($0["place_id"] as? String ?? "") }
        places["place"] = kept
        places["total"] = kept.count
        top["places"] = places
        try JSONSerialization.data(withJSONObject: top).write(to: catalog.appendingPathComponent("top-places.json"))
        let landmarksFile = source.appendingPathComponent("landmarks.json")
        var landmarks = try JSONSerialization.jsonObject(with: Data(contentsOf: landmarksFile)) as? [String: Any] ?? [:]
        landmarks["landmarks"] = (landmarks["landmarks"] as? [[String: Any]] ?? [])
            .filter { keep.contains($0["place_id"] as? String ?? "") }
        try JSONSerialization.data(withJSONObject: landmarks)
            .write(to: catalog.appendingPathComponent("landmarks.json"))
        try manager.copyItem(
            at: source.appendingPathComponent("licenses.json"),
            to: catalog.appendingPathComponent("licenses.json"))
        for id in Self.placeIDs {
            try manager.copyItem(
                at: source.appendingPathComponent("photos").appendingPathComponent(id),
                to: catalog.appendingPathComponent("photos").appendingPathComponent(id))
        }
    }

    /// The regions whole; the cities named in `cityNames` only.
    private func writeGazetteer(from source: URL) throws {
        try FileManager.default.copyItem(
            at: source.appendingPathComponent("regions.tsv"),
            to: gazetteerFolder.appendingPathComponent("regions.tsv"))
        let lines = try String(
            contentsOf: source.appendingPathComponent("cities.tsv"),
            encoding: .utf8
        ).split(separator: "\n")
        let kept =
            lines.prefix(1)
            + lines.dropFirst().filter { line in
                let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
                return columns.count > 1 && Self.cityNames.contains(String(columns[1]))
            }
        try (kept.joined(separator: "\n") + "\n").write(
            to: gazetteerFolder.appendingPathComponent("cities.tsv"),
            atomically: true, encoding: .utf8)
    }

    /// The small gazetteer: its cities, the kept places and their landmarks.
    func gazetteer() throws -> Gazetteer {
        try Gazetteer.load(
            gazetteer: gazetteerFolder, landmarks: catalog.appendingPathComponent("landmarks.json"),
            places: FixtureSource(catalog: catalog).topPlaces().items)
    }

    /// The local index, holding the small catalog and its landmarks.
    func index() throws -> SQLiteIndexStore {
        let store = SQLiteIndexStore(cacheDirectory: cache)
        let gazetteer = try gazetteer()
        try CatalogIndexer(index: store.open())
            .ensureCatalog(
                FixtureSource(catalog: catalog),
                catalog: catalog
            ) { gazetteer.entries.filter { $0.kind == .landmark } }
        return store
    }
}
