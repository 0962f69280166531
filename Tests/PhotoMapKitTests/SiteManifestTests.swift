// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("Export's manifest: what each page is made from")
struct SiteManifestTests {
    static let photo = Photo(
        id: "1", owner: "1@N01", pathAlias: "alias", secret: "s", server: "2", title: "Title",
        descriptionHTML: "<b>d</b>", ownerName: "Owner", dateTaken: "2011-04-15 17:48:17",
        tags: ["a"],
        coordinate: Coordinate(latitude: 1, longitude: 2), placeID: "P",
        images: [
            .square: ImageReference(
                url: "https://example.com/1_s.jpg",
                width: 75, height: 75)
        ],
        license: License(id: "4", name: "CC BY", url: "https://creativecommons.org/"))

    @Test(
        "every field of a photo is part of its pages' inputs",
        arguments: [
            \Photo.id, \Photo.owner, \Photo.pathAlias, \Photo.secret, \Photo.server, \Photo.title,
            \Photo.descriptionHTML,
            \Photo.ownerName, \Photo.placeID,
        ] as [WritableKeyPath<Photo, String> & Sendable])
    func photoFields(field: WritableKeyPath<Photo, String> & Sendable) {
        var changed = Self.photo
        changed[keyPath: field] += "x"
        #expect(changed.inputDigest != Self.photo.inputDigest)
    }

    @Test("…and the optional and structured ones; a field added to Photo must be added to its digest")
    func photoStructuredFields() {
        let base = Self.photo.inputDigest
        var photo = Self.photo
        photo.dateTaken = nil
        #expect(photo.inputDigest != base)
        photo = Self.photo
        photo.tags = ["a", "b"]
        #expect(photo.inputDigest != base)
        photo = Self.photo
        photo.coordinate = Coordinate(latitude: 1, longitude: 2.000001)
        #expect(photo.inputDigest != base)
        photo = Self.photo
        photo.images[.medium] = ImageReference(url: "https://example.com/1.jpg")
        #expect(photo.inputDigest != base)
        photo = Self.photo
        photo.images[.square]?.width = 76
        #expect(photo.inputDigest != base)
        photo = Self.photo
        photo.license = License(id: "5")
        #expect(photo.inputDigest != base)
        photo = Self.photo
        photo.locationSource = .track
        #expect(photo.inputDigest != base)
        photo = Self.photo
        photo.estimateOffset = -240
        #expect(photo.inputDigest != base)
        photo = Self.photo
        photo.sourceID = "rome-1"
        #expect(photo.inputDigest != base)
        // The digest lists Photo's fields one by one: this count is the reminder to extend it.
        #expect(
            Mirror(reflecting: Self.photo).children.count == 17,
            "Photo gained a field: add it to Photo.inputDigest")
        #expect(
            Mirror(reflecting: Place(id: "p", fullName: "")).children.count == 10,
            "Place gained a field: add it to Place.addFields")
        // Values never run together: ("ab", "c") is not ("a", "bc").
        #expect(InputDigest("ab", "c").finish() != InputDigest("a", "bc").finish())
        #expect(Self.photo.inputDigest == base)
    }

    @Test("pages take their images from any image store: a name per image and a local file, nothing more")
    func anyImageStore() throws {
        let folder = try TemporaryFolder()
        let square = folder.url.appendingPathComponent("one.png")
        try PNGCodec.encode(RGBAImage(width: 75, height: 75)).write(to: square)
        let store = OneFileStore(file: square.path)
        let photos = ["1", "2", "none"].map { Photo(id: $0, title: "Photo \($0)") }
        let writer = SiteWriter(root: folder.url.appendingPathComponent("site"))
        let builder = SiteBuilder(writer: writer, assets: try PageAssets.locate(), images: store, prefix: "map_files/")
        #expect(builder.photosWithoutImages(photos).map(\.id) == ["1", "2"])
        try builder.writePhotosPage(
            at: "map.html", title: "T", subtitle: "",
            photos: AnnotationAdapter().annotated(photos),
            back: nil, defaultView: "list")
        let site = folder.url.appendingPathComponent("site/map_files")
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("squares/image-1.png").path))
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("squares/image-2.png").path))
        let page = try String(contentsOf: folder.url.appendingPathComponent("site/map.html"), encoding: .utf8)
        #expect(page.contains("map_files/squares/image-1.png") && !page.contains("image-2"))
        #expect(builder.photosWithoutImages(photos).map(\.id) == ["2"])
    }

    /// Exports `photos` as the place page places/P.html into `folder`/site, with `builder` set up by
    /// `configure` first; the writer tells what was rendered and written.
    private static func export(
        _ photos: [Photo], into folder: TemporaryFolder,
        configure: (inout SiteBuilder) -> Void = { _ in }
    ) throws -> SiteWriter {
        let writer = SiteWriter(root: folder.url.appendingPathComponent("site"), keepsManifest: true)
        let cache = ThumbnailCache(
            cacheDirectory: folder.url.appendingPathComponent("cache"),
            origin: FixtureImageOrigin(folder: folder.url))
        var builder = SiteBuilder(writer: writer, assets: try PageAssets.locate(), images: cache, prefix: "")
        // The counts below are of pages: no coast tiles (CoastTilesTests and the browser tests have those).
        builder.coasts = nil
        configure(&builder)
        try builder.writePhotosPage(
            at: "places/P.html", title: "P", subtitle: "",
            photos: AnnotationAdapter().annotated(photos),
            back: nil, defaultView: "list")
        try writer.commit()
        return writer
    }

    @Test("a page is rendered only when its inputs or its file changed; a changed template renders every page")
    func rendersOnlyWhatChanged() throws {
        let folder = try TemporaryFolder()
        let photos = (1...3).map {
            Photo(id: "\($0)", title: "Photo \($0)", coordinate: Coordinate(latitude: 1, longitude: Double($0)))
        }
        func export(_ photos: [Photo], template: String? = nil) throws -> SiteWriter {
            try Self.export(photos, into: folder) { builder in
                if let template { builder.templateFingerprint = template }
            }
        }
        #expect(try export(photos).rendered == 4)
        #expect(try export(photos).rendered == 0)
        var edited = photos
        edited[1].title = "Edited"
        let afterEdit = try export(edited)
        #expect(afterEdit.rendered == 2 && afterEdit.written == 2)
        // A page replaced behind the manifest's back (by a killed export, or by hand) is made again.
        let page = folder.url.appendingPathComponent("site/photos/3.html")
        let original = try Data(contentsOf: page)
        try Data("<p>half".utf8).write(to: page)
        #expect(try export(edited).rendered == 1)
        #expect(try Data(contentsOf: page) == original)
        // Another template: every page is made again (and, the same bytes, left as it was).
        let otherTemplate = try export(edited, template: "another template")
        #expect(otherTemplate.rendered == 4 && otherTemplate.written == 0)
        #expect(try export(edited, template: "another template").rendered == 0)
    }

    @Test("a clustered place: an edited title rewrites its photo page, its place page and only the tiles showing it")
    func clusterTilesRewrittenOnlyWhereChanged() throws {
        let folder = try TemporaryFolder()
        // 40 photos 0.01° apart: one cluster at low zooms, each photo alone in its tile at the highest.
        let photos = (0..<40).map {
            Photo(
                id: "\($0)", title: "Photo \($0)",
                coordinate: Coordinate(latitude: 48 + Double($0 % 8) * 0.01, longitude: 2 + Double($0 / 8) * 0.01))
        }
        func export(_ photos: [Photo]) throws -> SiteWriter {
            try Self.export(photos, into: folder) { $0.clusterThreshold = 10 }
        }
        let tilesFolder = folder.url.appendingPathComponent("site/clusters/P")
        func tiles() throws -> [String: String] {
            let paths = FileManager.default.enumerator(atPath: tilesFolder.path)?.compactMap { $0 as? String } ?? []
            return try Dictionary(
                uniqueKeysWithValues: paths.filter { $0.hasSuffix(".js") }.map {
                    ($0, try String(contentsOf: tilesFolder.appendingPathComponent($0), encoding: .utf8))
                })
        }
        let cold = try export(photos)
        let before = try tiles()
        #expect(before.count > 17 && cold.rendered == 41 + before.count)
        #expect(try export(photos).rendered == 0)
        // Twice unchanged: the tiles of a page found current stay in the manifest, unlooked at.
        #expect(try export(photos).rendered == 0)

        var edited = photos
        edited[13].title = "Edited title"
        let afterEdit = try export(edited)
        let after = try tiles()
        let changed = after.keys.filter { after[$0] != before[$0] }
        #expect(after.keys.sorted() == before.keys.sorted())
        // The photo stands alone in its tile from some zoom up: those tiles change, the rest are not made.
        #expect(!changed.isEmpty && changed.allSatisfy { after[$0]?.contains("Edited title") == true })
        #expect(after.values.filter { $0.contains("Edited title") }.count == changed.count)
        #expect(afterEdit.rendered == 2 + changed.count && afterEdit.written == 2 + changed.count)
        #expect(try export(edited).rendered == 0)

        // A photo moved: the tiles it left and the tiles it joined (and the clusters counting it) change.
        var moved = edited
        moved[5].coordinate = Coordinate(latitude: 48.5, longitude: 2.5)
        let afterMove = try export(moved)
        let movedTiles = try tiles()
        #expect(afterMove.rendered == afterMove.written && afterMove.rendered > 2)
        // Made from scratch, the same tiles, byte for byte (a tile the photo left empty stays behind, unlinked).
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("site"))
        let fresh = try export(moved).rendered
        let freshTiles = try tiles()
        #expect(fresh == 41 + freshTiles.count && freshTiles.count <= movedTiles.count)
        #expect(freshTiles.allSatisfy { movedTiles[$0.key] == $0.value })
    }

    @Test("pages naming the gazetteer's places are made again when its cities change, not otherwise")
    func changedGazetteerRendersPages() throws {
        let folder = try TemporaryFolder()
        let photos = (1...3).map {
            Photo(
                id: "\($0)", title: "Photo \($0)",
                coordinate: Coordinate(latitude: 48.85, longitude: 2.3 + 0.01 * Double($0)))
        }
        func city(_ name: String, population: Int) -> (label: PlaceLabels.Label, population: Int) {
            (PlaceLabels.Label(name: name, latitude: 48.86, longitude: 2.35), population)
        }
        func export(_ cities: [(label: PlaceLabels.Label, population: Int)]) throws -> SiteWriter {
            try Self.export(photos, into: folder) { $0.placeLabels = PlaceLabels(cities: cities) }
        }
        #expect(try export([city("Paris", population: 2_000_000)]).rendered == 4)
        #expect(try export([city("Paris", population: 2_000_000)]).rendered == 0)
        let renamed = try export([city("Paris-Ville", population: 2_000_000)])
        #expect(renamed.rendered == 4 && renamed.written == 4)
        let page = try String(contentsOf: folder.url.appendingPathComponent("site/places/P.html"), encoding: .utf8)
        #expect(page.contains("Paris-Ville"))
        // A population changes which places a page names first: that is an input too.
        #expect(try export([city("Paris-Ville", population: 2_000_001)]).rendered == 4)
    }

    @Test("a manifest read back finds every file, whatever order its lines are in; of a repeated path the last counts")
    func manifestOrder() throws {
        let folder = try TemporaryFolder()
        let identity = SiteManifest.FileIdentity(inode: 1, size: 2, modified: 3)
        let paths = ["photos/2.html", "photos/10.html", "é.html", "index.html", "clusters/a/1.js", "clusters/b/1.js"]
        let manifest = SiteManifest()
        for (index, path) in paths.enumerated() {
            manifest.record(path, inputs: .init(digest: [UInt8(index)]), identity: { _ in identity })
        }
        let text = String(decoding: manifest.data(), as: UTF8.self)
        var lines = text.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.dropFirst())
                == lines.dropFirst().sorted {
                    $0.split(separator: "\t")[4].utf8
                        .lexicographicallyPrecedes($1.split(separator: "\t")[4].utf8)
                })
        // Reversed, with index.html repeated (its last line recording other inputs).
        lines = [lines[0]] + lines.dropFirst().reversed()
        let repeated = try #require(lines.firstIndex { $0.hasSuffix("\tindex.html") })
        lines.append(
            lines[repeated].replacingOccurrences(
                of: SiteManifest.Inputs(digest: [3]).hex,
                with: SiteManifest.Inputs(digest: [9]).hex))
        let file = folder.url.appendingPathComponent(SiteManifest.fileName)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let read = SiteManifest(site: folder.url)
        for (index, path) in paths.enumerated() where path != "index.html" {
            #expect(read.isCurrent(path, inputs: .init(digest: [UInt8(index)]), identity: { _ in identity }), "\(path)")
        }
        #expect(!read.isCurrent("index.html", inputs: .init(digest: [3]), identity: { _ in identity }))
        #expect(read.isCurrent("index.html", inputs: .init(digest: [9]), identity: { _ in identity }))
        #expect(!read.isCurrent("photos/1.html", inputs: .init(digest: [0]), identity: { _ in identity }))
        read.record("photos/1.html", inputs: .init(digest: [0]), identity: { _ in identity })
        #expect(read.recordedThisRun("photos/1.html") && read.changed)
        let written = String(decoding: read.data(), as: UTF8.self).split(separator: "\n").dropFirst()
        #expect(
            written.map { String($0.split(separator: "\t")[4]) }
                == [
                    "clusters/a/1.js", "clusters/b/1.js", "index.html", "photos/1.html", "photos/10.html",
                    "photos/2.html", "é.html",
                ])
    }

    @Test("thousands of files added in one run are each found again, re-recorded in place, and written sorted")
    func manyAdded() {
        let identity = SiteManifest.FileIdentity(inode: 1, size: 2, modified: 3)
        let paths = (0..<5_000).map { "photos/\(($0 * 7_919) % 5_000).html" }
        let manifest = SiteManifest()
        for (index, path) in paths.enumerated() {
            #expect(!manifest.recordedThisRun(path))
            manifest.record(path, inputs: .init(digest: [UInt8(index % 251)]), identity: { _ in identity })
        }
        for (index, path) in paths.enumerated() {
            #expect(manifest.isCurrent(path, inputs: .init(digest: [UInt8(index % 251)]), identity: { _ in nil }))
        }
        manifest.record(paths[42], inputs: .init(digest: [7, 7]), identity: { _ in identity })
        #expect(manifest.isCurrent(paths[42], inputs: .init(digest: [7, 7]), identity: { _ in nil }))
        #expect(!manifest.recordedThisRun("photos/5000.html"))
        let lines = String(decoding: manifest.data(), as: UTF8.self).split(separator: "\n").dropFirst()
        #expect(
            lines.map { String($0.split(separator: "\t")[4]) }
                == paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(lines.filter { $0.hasPrefix(SiteManifest.Inputs(digest: [7, 7]).hex) }.count == 1)
    }

    @Test("a position table finds every key among colliding hashes, across growth")
    func positionTable() {
        let keys = (0..<1_000).map { "key \($0)" }
        var table = PositionTable()
        // Every third key shares one hash: probing must still tell them apart.
        func hash(_ index: Int) -> Int { index % 3 == 0 ? 12_345 : keys[index].hashValue }
        for index in keys.indices {
            #expect(table.position(hash: hash(index)) { keys[$0] == keys[index] } == nil)
            table.insert(index, hash: hash(index), hashOf: hash)
        }
        for index in keys.indices {
            #expect(table.position(hash: hash(index)) { keys[$0] == keys[index] } == index)
        }
    }

    @Test("a damaged or unknown manifest is no manifest: every page is made and compared")
    func damagedManifest() throws {
        let folder = try TemporaryFolder()
        let first = SiteWriter(root: folder.url, keepsManifest: true)
        try first.writePage("a.html", inputs: InputDigest("1")) { "a" }
        try first.commit()
        let manifest = folder.url.appendingPathComponent(SiteManifest.fileName)
        #expect(try String(contentsOf: manifest, encoding: .utf8).hasPrefix("photomap site manifest 1\n"))
        let reread = SiteWriter(root: folder.url, keepsManifest: true)
        try reread.writePage("a.html", inputs: InputDigest("1")) { "a" }
        #expect(reread.rendered == 0)
        for damage in ["", "photomap site manifest 9\n", "garbage\u{0}\t\t\n", String(repeating: "\t", count: 100)] {
            try Data(damage.utf8).write(to: manifest)
            let writer = SiteWriter(root: folder.url, keepsManifest: true)
            try writer.writePage("a.html", inputs: InputDigest("1")) { "a" }
            #expect(writer.rendered == 1 && writer.written == 0 && writer.unchanged == 1)
        }
    }

    @Test(
        "placed images are found in the site's folder, not listed in the manifest: one removed from the site is placed again"
    )
    func imagesFoundInTheSite() throws {
        let folder = try TemporaryFolder()
        let cached = folder.url.appendingPathComponent("cached.png")
        try Data("image".utf8).write(to: cached)
        let root = folder.url.appendingPathComponent("site")
        let store = SameFileStore(file: cached.path)
        let square = SiteWriter.ImageJob(photo: Self.photo, size: .square, stem: "squares/a")
        let medium = SiteWriter.ImageJob(photo: Self.photo, size: .medium, stem: "images/b")
        let first = SiteWriter(root: root, keepsManifest: true)
        try first.begin()
        #expect(first.placedImage(stem: "squares/a") == nil)
        #expect(try first.placeImages([square, medium], from: store) == ["squares/a.png", "images/b.jpg"])
        try first.writePage("p.html", inputs: InputDigest("p")) { "p" }
        try first.commit()
        let manifest = try String(contentsOf: root.appendingPathComponent(SiteManifest.fileName), encoding: .utf8)
        #expect(manifest.split(separator: "\n").count == 2 && manifest.hasSuffix("\tp.html\n"))

        // The next run finds both, whichever format each is, without the cache.
        let second = SiteWriter(root: root, keepsManifest: true)
        #expect(second.placedImage(stem: "squares/a") == "squares/a.png")
        #expect(second.placedImage(stem: "images/b") == "images/b.jpg")
        #expect(second.placedImage(stem: "images/a") == nil)

        // Removed (or left empty) in the site: not there, so the export places it again from the cache.
        // (Unlinked first: the site's file is a hard link to the cache's, which must keep its bytes.)
        for path in ["squares/a.png", "images/b.jpg"] { unlink(root.appendingPathComponent(path).path) }
        try Data().write(to: root.appendingPathComponent("images/b.jpg"))
        let third = SiteWriter(root: root, keepsManifest: true)
        #expect(third.placedImage(stem: "squares/a") == nil && third.placedImage(stem: "images/b") == nil)
        #expect(try third.placeImages([square], from: store) == ["squares/a.png"])
        #expect(third.placedImage(stem: "squares/a") == "squares/a.png" && third.linked == 1)
        #expect(try Data(contentsOf: root.appendingPathComponent("squares/a.png")) == Data("image".utf8))
    }

    @Test(
        "a photo's image is looked for once a run once found; one not found yet is looked for again (after a prefetch)")
    func imagesLookedForOncePerRun() throws {
        let folder = try TemporaryFolder()
        let writer = SiteWriter(root: folder.url, keepsManifest: true)
        var lookups = 0
        func find(_ answer: String?) -> String? {
            lookups += 1
            return answer
        }
        #expect(writer.image(of: Self.photo, size: .square) { find(nil) } == nil)
        #expect(writer.image(of: Self.photo, size: .square) { find("squares/a.jpg") } == "squares/a.jpg")
        #expect(writer.image(of: Self.photo, size: .square) { find("squares/b.jpg") } == "squares/a.jpg")
        #expect(writer.image(of: Self.photo, size: .medium) { find("images/a.jpg") } == "images/a.jpg")
        #expect(lookups == 3)
    }

    @Test("the cache replaces an entry by renaming a new file over it: a file linked to the old one keeps its bytes")
    func cacheNeverWritesIntoALinkedFile() throws {
        let folder = try TemporaryFolder()
        let store = DiskStore(root: folder.url.appendingPathComponent("thumbs"))
        let name = SHA256.hex("https://example.com/1_s.jpg")
        let entry = store.file(named: name)
        try store.write(Data("old image".utf8), named: name)
        let site = folder.url.appendingPathComponent("site.png")
        #expect(link(entry.path, site.path) == 0)
        try store.write(Data("new image".utf8), named: name)
        #expect(try Data(contentsOf: site) == Data("old image".utf8))
        #expect(try Data(contentsOf: entry) == Data("new image".utf8))
    }
}

/// An image store holding one file as every photo's PNG square and JPEG medium image.
private struct SameFileStore: ImageStore {
    let file: String

    func imageName(of photo: Photo, size: PhotoSize) -> String? {
        "image-\(photo.id)-\(size)"
    }

    func localImage(of photo: Photo, size: PhotoSize) -> LocalImage? {
        LocalImage(name: "image-\(photo.id)-\(size)", path: file, fileExtension: size == .square ? "png" : "jpg")
    }
}

/// An image store holding one file, the image of photo "1"; photo "none" has no image at all.
private struct OneFileStore: ImageStore {
    let file: String

    func imageName(of photo: Photo, size: PhotoSize) -> String? {
        photo.id == "none" || size != .square ? nil : "image-\(photo.id)"
    }

    func localImage(of photo: Photo, size: PhotoSize) -> LocalImage? {
        photo.id == "1" && size == .square ? LocalImage(name: "image-1", path: file, fileExtension: "png") : nil
    }
}
