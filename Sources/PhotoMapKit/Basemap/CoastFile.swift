import Foundation

/// GSHHG's shorelines, major rivers and borders at full resolution, as scripts/make_coasts.py writes
/// them (Fixtures/basemap/coasts.bin; its docstring describes the bytes): every feature's kind and
/// bounds are read when the file is opened, its points only when a tile needs them.
public final class CoastFile: Sendable {
    /// What a feature is: GSHHG's shoreline levels (closed rings), then the lines.
    public enum Kind: UInt8, Sendable, CaseIterable {
        case land = 1, lake, islandInLake, pond, river, border

        /// Whether its features are closed rings (drawn filled) rather than lines.
        public var isRing: Bool { rawValue <= Kind.pond.rawValue }
    }

    /// One feature's header: where its points are in the file.
    struct Header: Sendable {
        let kind: Kind
        let count: Int
        let bounds: GridRect
        let offset: Int
        let length: Int
    }

    static let magic = Array("PMCOAST1".utf8)
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

    /// The headers, or nil when the bytes are not a whole coasts file.
    private static func headers(of data: Data) -> [Header]? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [Header]? in
            guard raw.count >= 12, Array(raw[0..<8]) == magic else { return nil }
            func u32(_ at: Int) -> Int {
                Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
            }
            func i32(_ at: Int) -> Int {
                Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int32.self)))
            }
            let count = u32(8)
            var headers: [Header] = []
            headers.reserveCapacity(count)
            var at = 12
            for _ in 0..<count {
                guard at + 25 <= raw.count, let kind = Kind(rawValue: raw[at]) else { return nil }
                let length = u32(at + 21)
                guard at + 25 + length <= raw.count, length >= 8 else { return nil }
                headers.append(
                    Header(
                        kind: kind, count: u32(at + 1),
                        bounds: GridRect(
                            west: i32(at + 5), south: i32(at + 9), east: i32(at + 13), north: i32(at + 17)),
                        offset: at + 25, length: length))
                at += 25 + length
            }
            return at == raw.count ? headers : nil
        }
    }

    /// The points of the feature `header` describes.
    func points(of header: Header) -> [GridPoint] {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [GridPoint] in
            var points: [GridPoint] = []
            points.reserveCapacity(header.count)
            var at = header.offset
            let end = header.offset + header.length
            var x = Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int32.self)))
            var y = Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 4, as: Int32.self)))
            at += 8
            points.append(GridPoint(x, y))
            func varint() -> Int {
                var (value, shift) = (0, 0)
                while at < end {
                    let byte = raw[at]
                    at += 1
                    value |= Int(byte & 0x7F) << shift
                    if byte < 0x80 { break }
                    shift += 7
                }
                return (value >> 1) ^ -(value & 1)  // zigzag
            }
            while at < end {
                x += varint()
                y += varint()
                points.append(GridPoint(x, y))
            }
            return points
        }
    }
}
