// SPDX-License-Identifier: Apache-2.0
import Foundation

/// An 8-bit RGBA bitmap, rows top to bottom.
public struct RGBAImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes: red, green, blue, alpha.
    public var pixels: [UInt8]

    /// An image of the given size filled with `pixels`, or opaque black.
    public init(width: Int, height: Int, pixels: [UInt8]? = nil) {
        precondition(width > 0 && height > 0, "an image has at least one pixel")
        self.width = width
        self.height = height
        self.pixels = pixels ?? [UInt8](repeating: 0, count: width * height * 4)
        if pixels == nil { for index in stride(from: 3, to: self.pixels.count, by: 4) { self.pixels[index] = 255 } }
        precondition(self.pixels.count == width * height * 4, "pixel count must match the size")
    }

    /// An image of `width` × `height` copied from a decoder's `malloc`ed RGBA buffer, which is then freed.
    init(takingMallocedPixels pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int) {
        defer { free(pixels) }
        self.init(
            width: width, height: height, pixels: Array(UnsafeBufferPointer(start: pixels, count: width * height * 4)))
    }

    /// The square of `side` pixels in the middle of the image, scaled by averaging the source pixels
    /// each target pixel covers (a box filter: no aliasing when shrinking), as Flickr's square crops.
    public func centreSquare(side: Int) -> RGBAImage {
        pixels.withUnsafeBufferPointer { buffer in
            // An image has at least one pixel, so the buffer has an address.
            guard let base = buffer.baseAddress else { return self }
            // Borrowed for the call: the plane releases nothing.
            return PixelPlane(
                base: base, width: width, height: height, channels: 4, stride: width * 4,
                release: {}
            ).centreSquare(side: side)
        }
    }

    /// The image as EXIF orientation `orientation` (1–8) says to show it: 2–4 mirrored or turned half
    /// round, 5–8 turned a quarter (with or without a mirror). Other values leave it as it is.
    public func oriented(_ orientation: Int) -> RGBAImage {
        guard (2...8).contains(orientation) else { return self }
        let swapsSides = orientation >= 5
        let outWidth = swapsSides ? height : width, outHeight = swapsSides ? width : height
        var output = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                // The source pixel shown at (x, y).
                let (sourceX, sourceY): (Int, Int)
                switch orientation {
                case 2: (sourceX, sourceY) = (width - 1 - x, y)
                case 3: (sourceX, sourceY) = (width - 1 - x, height - 1 - y)
                case 4: (sourceX, sourceY) = (x, height - 1 - y)
                case 5: (sourceX, sourceY) = (y, x)
                case 6: (sourceX, sourceY) = (y, height - 1 - x)
                case 7: (sourceX, sourceY) = (width - 1 - y, height - 1 - x)
                default: (sourceX, sourceY) = (width - 1 - y, x)
                }
                let from = (sourceY * width + sourceX) * 4, to = (y * outWidth + x) * 4
                output[to..<(to + 4)] = pixels[from..<(from + 4)]
            }
        }
        return RGBAImage(width: outWidth, height: outHeight, pixels: output)
    }
}
