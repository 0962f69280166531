// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// GSHHG's shorelines, major rivers and borders at full resolution, as scripts/make_coasts.py writes
/// them (Fixtures/basemap/coasts.bin; its docstring describes the bytes): every feature's kind and
/// bounds are read when the file is opened, its points only when a tile needs them, and of a long
/// feature only the chunks that meet the tile.
public final class CoastFile: Sendable {
    /// What a feature is: GSHHG's shoreline levels (closed rings), then the lines.
    public enum Kind: UInt8, Sendable, CaseIterable {
        case land = 1, lake, islandInLake, pond, river, border

        /// Whether its features are closed rings (drawn filled) rather than lines.
        public var isRing: Bool { rawValue <= Kind.pond.rawValue }
    }

    /// One feature's entry in the file's table: where its chunks are.
    struct Header: Sendable {
        let kind: Kind
        let bounds: GridRect
        let chunks: Int
        let offset: Int
        let length: Int
    }

    /// A run of a feature's points: its last point is the next chunk's first.
    struct Chunk {
        let bounds: GridRect
        let offset: Int
        let length: Int
    }

    static let magic = Array("PMCOAST2".utf8)
    private let data: Data
    let headers: [Header]
    /// The file's size and modification time: pages and tiles made from another file are made again.
    public let version: [UInt8]

    /// The features of the file at `url`, mapped rather than read; nil when it is not a coasts file.
    public init?(contentsOf url: URL) {
        guard let data = try? Data(contentsOf: url, options: .alwaysMapped), let headers = Self.headers(of: data)
        else { return nil }
        self.data = data
        self.headers = headers
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let inputs = InputDigest("coasts")
        inputs.add(data.count)
        inputs.add(Int(((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0) * 1000))
        version = inputs.finishDigest()
    }

    /// The bundled file: Fixtures/basemap/coasts.bin in the checkout or the installed data; nil when
    /// scripts/make_coasts.py has not made it (pages then have no coasts past the world outline).
    public static let bundled: CoastFile? = FixtureSource.locateFixtures(containing: "basemap/coasts.bin").flatMap {
        CoastFile(contentsOf: $0.appendingPathComponent("basemap/coasts.bin"))
    }

    /// The table, or nil when the bytes are not a whole coasts file.
    private static func headers(of data: Data) -> [Header]? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [Header]? in
            guard raw.count >= 12, Array(raw[0..<8]) == magic else { return nil }
            let count = u32(raw, 8)
            var headers: [Header] = []
            headers.reserveCapacity(count)
            // Each feature's bytes start where the previous one's end, the first after the table.
            var end = 12 + count * 29
            guard end <= raw.count else { return nil }
            for index in 0..<count {
                let at = 12 + index * 29
                guard let kind = Kind(rawValue: raw[at]) else { return nil }
                let chunks = u32(raw, at + 17), offset = u32(raw, at + 21), length = u32(raw, at + 25)
                // Every chunk holds its first point (8 bytes), and a table when there is more than one.
                let least = chunks * 8 + (chunks > 1 ? chunks * 20 : 0)
                guard chunks >= 1, offset == end, length >= least, offset + length <= raw.count else { return nil }
                headers.append(
                    Header(
                        kind: kind, bounds: rect(raw, at + 1), chunks: chunks, offset: offset, length: length))
                end += length
            }
            return end == raw.count ? headers : nil
        }
    }

    private static func u32(_ raw: UnsafeRawBufferPointer, _ at: Int) -> Int {
        Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
    }

    private static func rect(_ raw: UnsafeRawBufferPointer, _ at: Int) -> GridRect {
        func i32(_ at: Int) -> Int { Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int32.self))) }
        return GridRect(west: i32(at), south: i32(at + 4), east: i32(at + 8), north: i32(at + 12))
    }

    /// The chunks of the feature `header` describes; none when its table does not fit its bytes.
    func chunks(of header: Header) -> [Chunk] {
        guard header.chunks > 1 else {
            return [Chunk(bounds: header.bounds, offset: header.offset, length: header.length)]
        }
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [Chunk] in
            var chunks: [Chunk] = []
            chunks.reserveCapacity(header.chunks)
            var offset = header.offset + header.chunks * 20
            let end = header.offset + header.length
            for index in 0..<header.chunks {
                let at = header.offset + index * 20
                let length = Self.u32(raw, at + 16)
                guard length >= 8, offset + length <= end else { return [] }
                chunks.append(Chunk(bounds: Self.rect(raw, at), offset: offset, length: length))
                offset += length
            }
            return offset == end ? chunks : []
        }
    }

    /// The points of the feature `header` describes.
    func points(of header: Header) -> [GridPoint] {
        var points: [GridPoint] = []
        // A point takes two bytes or more.
        points.reserveCapacity(header.length / 2)
        for chunk in chunks(of: header) { append(chunk, to: &points) }
        return points
    }

    /// The points of the ring `header` describes as `rect` sees them: each chunk that does not meet
    /// `rect` lies wholly past one of its sides, and is drawn straight from its first point to the next
    /// chunk's. Only the ring's part past that side changes, so its area within `rect` is the same.
    /// (The last chunk is read whole: it ends the ring.)
    func ring(of header: Header, near rect: GridRect) -> [GridPoint] {
        let chunks = chunks(of: header)
        var points: [GridPoint] = []
        for (index, chunk) in chunks.enumerated() {
            if chunk.bounds.intersects(rect) || index == chunks.count - 1 {
                append(chunk, to: &points)
            } else {
                append(first(of: chunk), to: &points)
            }
        }
        return points
    }

    /// The runs of the line `header` describes that may meet `rect`: its chunks that meet it, joined
    /// where they follow one another.
    func runs(of header: Header, meeting rect: GridRect) -> [[GridPoint]] {
        var runs: [[GridPoint]] = []
        var run: [GridPoint] = []
        for chunk in chunks(of: header) {
            if chunk.bounds.intersects(rect) {
                append(chunk, to: &run)
            } else if !run.isEmpty {
                runs.append(run)
                run = []
            }
        }
        if !run.isEmpty { runs.append(run) }
        return runs
    }

    private func first(of chunk: Chunk) -> GridPoint {
        data.withUnsafeBytes { raw in
            GridPoint(
                x: Int32(littleEndian: raw.loadUnaligned(fromByteOffset: chunk.offset, as: Int32.self)),
                y: Int32(littleEndian: raw.loadUnaligned(fromByteOffset: chunk.offset + 4, as: Int32.self)))
        }
    }

    private func append(_ point: GridPoint, to points: inout [GridPoint]) {
        if points.last != point { points.append(point) }
    }

    /// Appends the points of `chunk`, but for its first when it is `points`' last (the previous chunk's).
    private func append(_ chunk: Chunk, to points: inout [GridPoint]) {
        append(first(of: chunk), to: &points)
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            // Decoded through a typed pointer: the bytes' bounds are the chunk's, checked when it was read.
            let bytes = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var at = chunk.offset + 8
            let end = chunk.offset + chunk.length
            var (x, y) = (Int(points[points.count - 1].x), Int(points[points.count - 1].y))
            while at < end {
                x &+= Self.varint(bytes, at: &at, end: end)
                y &+= Self.varint(bytes, at: &at, end: end)
                points.append(GridPoint(x, y))
            }
        }
    }

    /// The zigzag varint at `at`, which it moves past.
    private static func varint(_ bytes: UnsafePointer<UInt8>, at: inout Int, end: Int) -> Int {
        var (value, shift) = (0, 0)
        while at < end {
            let byte = bytes[at]
            at += 1
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return (value >> 1) ^ -(value & 1)
    }
}
