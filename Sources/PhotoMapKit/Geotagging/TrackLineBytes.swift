// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// How both catalogs keep a track line: each point's latitude then longitude as little-endian doubles,
/// 16 bytes a point; the digest of those bytes keeps each line once.
enum TrackLineBytes {
    static func bytes(of line: [Coordinate]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.count * 16)
        for point in line {
            for value in [point.latitude, point.longitude] {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 }
            }
        }
        return bytes
    }

    static func line(of bytes: UnsafeRawBufferPointer) -> [Coordinate] {
        func double(at offset: Int) -> Double {
            Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        }
        return stride(from: 0, to: bytes.count - 15, by: 16).compactMap { offset in
            Coordinate(latitude: double(at: offset), longitude: double(at: offset + 8))
        }
    }
}
