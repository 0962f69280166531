// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// Images the cache tests fetch, written once per test process by photomap's own encoders:
/// `square-{n}.png` (75×75), `large-{n}.png` (240×180), `photo-{n}.jpg` (75×75), `big-{n}.jpg` (320×240).
public enum TestImages {
    /// How many of each kind there are.
    public static let count = 160

    /// The folder the image server serves.
    public static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "photomap-test-images-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, width, height, jpeg) in [
                ("square", 75, 75, false), ("large", 240, 180, false),
                ("photo", 75, 75, true), ("big", 320, 240, true),
            ] {
                for index in 0..<count {
                    let image = pattern(width: width, height: height, seed: index)
                    let data = jpeg ? try JPEGCodec.encode(image) : try PNGCodec.encode(image)
                    try data.write(to: folder.appendingPathComponent("\(name)-\(index).\(jpeg ? "jpg" : "png")"))
                }
            }
        } catch {
            fatalError("cannot write the test images: \(error)")
        }
        return folder
    }()

    /// A gradient that differs with `seed`.
    public static func pattern(width: Int, height: Int, seed: Int) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                image.pixels[offset] = UInt8((x * 255 / width + seed * 37) % 256)
                image.pixels[offset + 1] = UInt8((y * 255 / height + seed * 11) % 256)
                image.pixels[offset + 2] = UInt8((seed * 53) % 256)
            }
        }
        return image
    }
}
