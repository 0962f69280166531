import Foundation
import PhotoMapKit

// Writes the embedded catalog's images: for every photo a medium landscape (its width_m × height_m)
// and its 75×75 and 150×150 squares cropped from it, as PNG through libpng, at the path its URL
// names under Fixtures/images/ (e.g. Fixtures/images/65535/{id}_{secret}_s.png).
// Usage: photomap-fixture-images [--catalog DIR] [--out DIR]   (existing files are kept)

func value(of option: String) -> String? {
    let arguments = CommandLine.arguments
    return arguments.firstIndex(of: option).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

guard let catalog = value(of: "--catalog").map(URL.init(fileURLWithPath:)) ?? FixtureSource.locateCatalog() else {
    FileHandle.standardError.write(Data("photomap-fixture-images: error: no Fixtures/catalog found; pass --catalog DIR\n".utf8))
    exit(1)
}
let output = value(of: "--out").map(URL.init(fileURLWithPath:)) ?? catalog.deletingLastPathComponent().appendingPathComponent("images")
let source = FixtureSource(catalog: catalog)
var written = 0, kept = 0

/// The file for an image URL: its path below the host, every component checked to stay inside `output`.
func file(for url: String) -> URL? {
    guard url.hasPrefix(ImageHost.flickr.base + "/") else { return nil }
    let components = url.dropFirst(ImageHost.flickr.base.count + 1).split(separator: "/")
    let safe = components.allSatisfy { part in
        part != ".." && part != "." && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) }
    }
    return safe ? components.reduce(output) { $0.appendingPathComponent(String($1)) } : nil
}

do {
    for place in try source.topPlaces().items {
        for photo in try source.photos(inPlace: place.id, limit: FlickrSource.maximumResults).items {
            guard let medium = photo.images[.medium], let mediumFile = file(for: medium.url) else { continue }
            let targets: [(URL, Int?)] = [(mediumFile, nil)]
                + [PhotoSize.square: 75, .largeSquare: 150].compactMap { size, side in
                    photo.images[size].flatMap { file(for: $0.url) }.map { ($0, side) }
                }
            if targets.allSatisfy({ FileManager.default.fileExists(atPath: $0.0.path) }) {
                kept += targets.count
                continue
            }
            var painter = FixturePainter(seed: photo.id)
            let picture = painter.paint(width: medium.width ?? 240, height: medium.height ?? 180)
            for (target, side) in targets {
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try PNGCodec.encode(side.map { picture.centreSquare(side: $0) } ?? picture).write(to: target, options: .atomic)
                written += 1
            }
        }
    }
} catch {
    FileHandle.standardError.write(Data("photomap-fixture-images: error: \(error)\n".utf8))
    exit(1)
}
print("photomap-fixture-images: \(written) images written, \(kept) already present, in \(output.path)")
