// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// JPEGs that cost far more to decode than their size says, made from photomap's own progressive encoder:
/// what an attacker puts in a folder to be imported.
public enum HostileJPEG {
    /// A progressive JPEG of `width`×`height` whose last scan is repeated until the file has `scans`
    /// scans (a scan bomb: each scan is a pass over the whole image, a few bytes each).
    public static func scanBomb(width: Int, height: Int, scans: Int) throws -> Data {
        let source = try JPEGCodec.encode(ExifJPEG.quarters(width: width, height: height), progressive: true)
        let bytes = [UInt8](source)
        // 0xFF 0xDA only ever starts a scan (0xFF in coded data is followed by 0x00), and EOI ends the file.
        let starts = bytes.indices.dropLast().filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }
        guard let last = starts.last, bytes.suffix(2).elementsEqual([0xFF, 0xD9]) else { return source }
        let lastScan = bytes[last..<(bytes.count - 2)]
        var bomb = Array(bytes.dropLast(2))
        bomb.reserveCapacity(bomb.count + lastScan.count * max(scans - starts.count, 0) + 2)
        for _ in 0..<max(scans - starts.count, 0) { bomb += lastScan }
        return Data(bomb + [0xFF, 0xD9])
    }

    /// A small progressive JPEG whose frame header claims `width`×`height` with every component at full
    /// resolution (4:4:4): a decode would keep every pixel's coefficients of the three components.
    public static func progressiveDeclaring(width: Int, height: Int) throws -> Data {
        var data = try JPEGCodec.encode(ExifJPEG.quarters(width: 16, height: 16), progressive: true)
        guard let sof = data.indices.dropLast().first(where: { data[$0] == 0xFF && data[$0 + 1] == 0xC2 }) else {
            return data
        }
        // After the marker: length (2), precision (1), height and width (2 each), the component count, then
        // for each component its id, its sampling factors (horizontal << 4 | vertical) and its table.
        data.replaceSubrange(
            (sof + 5)..<(sof + 9),
            with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
        for component in 0..<Int(data[sof + 9]) { data[sof + 11 + component * 3] = 0x11 }
        return data
    }
}
