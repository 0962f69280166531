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

    /// The square of `side` pixels in the middle of the image, scaled by averaging the source pixels
    /// each target pixel covers (a box filter: no aliasing when shrinking), as Flickr's square crops.
    public func centreSquare(side: Int) -> RGBAImage {
        let crop = min(width, height)
        let left = Double(width - crop) / 2
        let top = Double(height - crop) / 2
        let scale = Double(crop) / Double(side)
        var output = [UInt8](repeating: 0, count: side * side * 4)
        for targetY in 0..<side {
            let y0 = top + Double(targetY) * scale
            let y1 = y0 + scale
            for targetX in 0..<side {
                let x0 = left + Double(targetX) * scale
                let x1 = x0 + scale
                var sums = (0.0, 0.0, 0.0, 0.0)
                var area = 0.0
                // Each source pixel counts by the part of it the target pixel covers.
                for sourceY in Int(y0)..<min(Int(y1.rounded(.up)), height) {
                    let coverY = min(y1, Double(sourceY + 1)) - max(y0, Double(sourceY))
                    for sourceX in Int(x0)..<min(Int(x1.rounded(.up)), width) {
                        let weight = coverY * (min(x1, Double(sourceX + 1)) - max(x0, Double(sourceX)))
                        let offset = (sourceY * width + sourceX) * 4
                        sums.0 += Double(pixels[offset]) * weight
                        sums.1 += Double(pixels[offset + 1]) * weight
                        sums.2 += Double(pixels[offset + 2]) * weight
                        sums.3 += Double(pixels[offset + 3]) * weight
                        area += weight
                    }
                }
                let offset = (targetY * side + targetX) * 4
                let divisor = max(area, .leastNonzeroMagnitude)
                output[offset] = UInt8(clamping: Int((sums.0 / divisor).rounded()))
                output[offset + 1] = UInt8(clamping: Int((sums.1 / divisor).rounded()))
                output[offset + 2] = UInt8(clamping: Int((sums.2 / divisor).rounded()))
                output[offset + 3] = UInt8(clamping: Int((sums.3 / divisor).rounded()))
            }
        }
        return RGBAImage(width: side, height: side, pixels: output)
    }
}
