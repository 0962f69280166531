// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Decoded pixels as a C library handed them over (rows of `channels` bytes a pixel, `stride` bytes
/// apart), read in place: a decoder's buffer is never copied into a second image of the same size.
/// Not Sendable: it belongs to the thread that decoded it, and releases the buffer when it goes.
public final class PixelPlane {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes a pixel: 3 (RGB) or 4 (RGBA).
    public let channels: Int
    /// Bytes from one row to the next.
    public let stride: Int
    let base: UnsafePointer<UInt8>
    private let release: () -> Void

    /// A plane over `base`; `release` frees it when the plane goes.
    init(
        base: UnsafePointer<UInt8>, width: Int, height: Int, channels: Int, stride: Int,
        release: @escaping () -> Void
    ) {
        self.base = base
        self.width = width
        self.height = height
        self.channels = channels
        self.stride = stride
        self.release = release
    }

    /// A plane over a buffer from `malloc`, rows packed, freed with the plane.
    convenience init(owning pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, channels: Int) {
        self.init(
            base: UnsafePointer(pixels), width: width, height: height, channels: channels,
            stride: width * channels, release: { free(pixels) })
    }

    deinit { release() }

    /// The part of the plane from (`left`, `top`), `cropWidth`×`cropHeight` pixels, scaled to
    /// `width`×`height` by averaging the source pixels each target pixel covers (a box filter: no
    /// aliasing when shrinking). Alpha is opaque when the plane has none.
    public func resampled(
        left: Double, top: Double, cropWidth: Double, cropHeight: Double,
        width targetWidth: Int, height targetHeight: Int
    ) -> RGBAImage {
        var output = [UInt8](repeating: 255, count: targetWidth * targetHeight * 4)
        let scaleX = cropWidth / Double(targetWidth), scaleY = cropHeight / Double(targetHeight)
        for targetY in 0..<targetHeight {
            let y0 = top + Double(targetY) * scaleY, y1 = y0 + scaleY
            for targetX in 0..<targetWidth {
                let x0 = left + Double(targetX) * scaleX, x1 = x0 + scaleX
                var sums: (Double, Double, Double, Double) = (0, 0, 0, 0)
                var area = 0.0
                // Each source pixel counts by the part of it the target pixel covers.
                for sourceY in Int(y0)..<min(Int(y1.rounded(.up)), height) {
                    let coverY = min(y1, Double(sourceY + 1)) - max(y0, Double(sourceY))
                    let row = base + sourceY * stride
                    for sourceX in Int(x0)..<min(Int(x1.rounded(.up)), width) {
                        let weight = coverY * (min(x1, Double(sourceX + 1)) - max(x0, Double(sourceX)))
                        let pixel = row + sourceX * channels
                        sums.0 += Double(pixel[0]) * weight
                        sums.1 += Double(pixel[1]) * weight
                        sums.2 += Double(pixel[2]) * weight
                        sums.3 += (channels == 4 ? Double(pixel[3]) : 255) * weight
                        area += weight
                    }
                }
                let offset = (targetY * targetWidth + targetX) * 4
                let divisor = max(area, .leastNonzeroMagnitude)
                output[offset] = UInt8(clamping: Int((sums.0 / divisor).rounded()))
                output[offset + 1] = UInt8(clamping: Int((sums.1 / divisor).rounded()))
                output[offset + 2] = UInt8(clamping: Int((sums.2 / divisor).rounded()))
                output[offset + 3] = UInt8(clamping: Int((sums.3 / divisor).rounded()))
            }
        }
        return RGBAImage(width: targetWidth, height: targetHeight, pixels: output)
    }

    /// The square of `side` pixels in the middle of the plane, as Flickr's square crops.
    public func centreSquare(side: Int) -> RGBAImage {
        let crop = Double(min(width, height))
        return resampled(
            left: (Double(width) - crop) / 2, top: (Double(height) - crop) / 2, cropWidth: crop,
            cropHeight: crop, width: side, height: side)
    }

    /// The whole plane scaled to fit `side` pixels on its longer side (never enlarged).
    public func fitted(within side: Int) -> RGBAImage {
        let scale = min(1, Double(side) / Double(max(width, height)))
        let targetWidth = max(1, Int((Double(width) * scale).rounded()))
        let targetHeight = max(1, Int((Double(height) * scale).rounded()))
        return resampled(
            left: 0, top: 0, cropWidth: Double(width), cropHeight: Double(height),
            width: targetWidth, height: targetHeight)
    }
}

/// A JPEG decoded at a reduced scale: the plane, and the size of the full image.
public struct ScaledImage {
    /// The full image's width, as its header declares.
    public let fullWidth: Int
    /// The full image's height.
    public let fullHeight: Int
    /// The decoded pixels (RGB).
    public let plane: PixelPlane
}
