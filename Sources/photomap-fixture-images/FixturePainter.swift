// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// Paints a small landscape for a photo id: the same id always gives the same picture,
/// different ids give visibly different skies, suns and hills.
struct FixturePainter {
    private var state: UInt64

    private struct Hill {
        let base: Double, amplitude: Double, frequency: Double, phase: Double
        let color: (UInt8, UInt8, UInt8)
    }

    init(seed: String) {
        // FNV-1a: a stable hash (Swift's Hasher is seeded per process).
        state = seed.utf8.reduce(0xcbf29ce484222325) { ($0 ^ UInt64($1)) &* 0x100000001b3 }
    }

    /// A landscape of the given size.
    mutating func paint(width: Int, height: Int) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        let hue = unit()
        let skyTop = color(hue: hue, saturation: 0.55, value: 0.95)
        let skyBottom = color(hue: hue + 0.08, saturation: 0.25, value: 1.0)
        let sun = (
            x: unit() * Double(width), y: (0.15 + unit() * 0.3) * Double(height),
            r: (0.06 + unit() * 0.08) * Double(min(width, height))
        )
        var hills: [Hill] = []
        for layer in 0..<3 {
            let depth = Double(layer)
            let base = (0.55 + 0.13 * depth) * Double(height)
            let amplitude = (0.04 + unit() * 0.08) * Double(height)
            let frequency = 1 + unit() * 4
            let phase = unit() * 6.28
            let shade = color(hue: hue + 0.3 + 0.05 * depth, saturation: 0.5, value: 0.55 - 0.12 * depth)
            hills.append(Hill(base: base, amplitude: amplitude, frequency: frequency, phase: phase, color: shade))
        }
        for y in 0..<height {
            let t = Double(y) / Double(max(height - 1, 1))
            for x in 0..<width {
                var pixel = mix(skyTop, skyBottom, t)
                let dx = Double(x) - sun.x, dy = Double(y) - sun.y
                if dx * dx + dy * dy < sun.r * sun.r { pixel = (255, 236, 160) }
                for hill in hills {
                    let ridge =
                        hill.base
                        + hill.amplitude * sin(hill.phase + hill.frequency * 6.28 * Double(x) / Double(width))
                    if Double(y) > ridge { pixel = hill.color }
                }
                let offset = (y * width + x) * 4
                image.pixels[offset] = pixel.0
                image.pixels[offset + 1] = pixel.1
                image.pixels[offset + 2] = pixel.2
            }
        }
        return image
    }

    /// A pseudo-random number in 0..<1 (xorshift64*).
    private mutating func unit() -> Double {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Double((state &* 0x2545F4914F6CDD1D) >> 11) / Double(1 << 53)
    }

    private func color(hue: Double, saturation: Double, value: Double) -> (UInt8, UInt8, UInt8) {
        let h = (hue - hue.rounded(.down)) * 6
        let c = value * saturation
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) =
            switch Int(h) {
            case 0: (c, x, 0)
            case 1: (x, c, 0)
            case 2: (0, c, x)
            case 3: (0, x, c)
            case 4: (x, 0, c)
            default: (c, 0, x)
            }
        let m = value - c
        return (UInt8((r + m) * 255), UInt8((g + m) * 255), UInt8((b + m) * 255))
    }

    private func mix(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8), _ t: Double) -> (UInt8, UInt8, UInt8) {
        func channel(_ p: UInt8, _ q: UInt8) -> UInt8 { UInt8(Double(p) * (1 - t) + Double(q) * t) }
        return (channel(a.0, b.0), channel(a.1, b.1), channel(a.2, b.2))
    }
}
