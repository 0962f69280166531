// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapSupport

// Writes the embedded catalog's images: for every photo a medium landscape (its width_m × height_m)
// and its 75×75 and 150×150 squares cropped from it, as PNG through libpng, at the path its URL
// names under Fixtures/images/ (e.g. Fixtures/images/65535/{id}_{secret}_s.png). Then the place data
// made ahead of time beside the gazetteer: places.bin (`PlaceFile`), that import, geotag, locate and serve
// map at start, and names.sqlite, the index of names `find` reads.
// Usage: photomap-fixture-images [--catalog DIR] [--out DIR] [--gazetteer DIR]   (up-to-date files are kept)

func value(of option: String) -> String? {
    let arguments = CommandLine.arguments
    return arguments.firstIndex(of: option).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

guard let catalog = value(of: "--catalog").map(URL.init(fileURLWithPath:)) ?? FixtureSource.locateCatalog() else {
    FileHandle.standardError.write(
        Data("photomap-fixture-images: error: no Fixtures/catalog found; pass --catalog DIR\n".utf8))
    exit(1)
}
let output =
    value(of: "--out").map(URL.init(fileURLWithPath:))
    ?? catalog.deletingLastPathComponent().appendingPathComponent("images")
let source = FixtureSource(catalog: catalog)
let images = FixtureImageOrigin(folder: output)
/// Written and kept files, and the first failure: painting runs on every core (it is most of a fresh
/// clone's set-up after the build).
let tally = Locked((written: 0, kept: 0, failure: nil as (any Error)?))

/// Paints one photo's medium and squares, unless all of them are already there.
@Sendable func paint(_ photo: Photo) throws {
    guard let medium = photo.images[.medium], let mediumFile = images.file(for: medium.url) else { return }
    let targets: [(URL, Int?)] =
        [(mediumFile, nil)]
        + [PhotoSize.square: 75, .largeSquare: 150].compactMap { size, side in
            photo.images[size].flatMap { images.file(for: $0.url) }.map { ($0, side) }
        }
    if targets.allSatisfy({ FileManager.default.fileExists(atPath: $0.0.path) }) {
        tally.withLock { $0.kept += targets.count }
        return
    }
    var painter = FixturePainter(seed: photo.id)
    let picture = painter.paint(width: medium.width ?? 240, height: medium.height ?? 180)
    for (target, side) in targets {
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(),
            withIntermediateDirectories: true)
        try PNGCodec.encode(side.map { picture.centreSquare(side: $0) } ?? picture)
            .write(to: target, options: .atomic)
        tally.withLock { $0.written += 1 }
    }
}

do {
    for place in try source.topPlaces().items {
        let photos = try source.photos(inPlace: place.id, limit: FixtureSource.maximumResults).items
        DispatchQueue.concurrentPerform(iterations: photos.count) { index in
            do { try paint(photos[index]) } catch { tally.withLock { $0.failure = $0.failure ?? error } }
        }
        if let failure = tally.withLock({ $0.failure }) { throw failure }
    }
} catch {
    FileHandle.standardError.write(Data("photomap-fixture-images: error: \(error)\n".utf8))
    exit(1)
}
let (written, kept, _) = tally.withLock { $0 }
print("photomap-fixture-images: \(written) images written, \(kept) already present, in \(output.path)")

let gazetteer =
    value(of: "--gazetteer").map(URL.init(fileURLWithPath:))
    ?? catalog.deletingLastPathComponent().appendingPathComponent("gazetteer")
let names = GazetteerSources(
    folder: gazetteer, catalog: catalog, topPlaces: { try FixtureSource(catalog: catalog).topPlaces().items })
do {
    let wrote = try LocalPlaces.prebuild(gazetteer: gazetteer)
    print("photomap-fixture-images: \(gazetteer.path)/places.bin \(wrote ? "written" : "up to date")")
    let made = try GazetteerIndex.prebuild(for: names)
    print("photomap-fixture-images: \(names.prebuiltIndex.path) \(made ? "written" : "up to date")")
} catch {
    FileHandle.standardError.write(Data("photomap-fixture-images: error: place data: \(error)\n".utf8))
    exit(1)
}
