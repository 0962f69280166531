// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The prebuilt place data (`Fixtures/gazetteer/places.bin`): what `LocalPlaces` and its boundary index
/// hold, written ahead of time by `photomap-fixture-images` and read in place (mapped) at start.
///
/// Layout, all numbers little-endian:
///
///     0   8 bytes   magic "PMPLACES"
///     8   UInt32    version (`PlaceFile.version`: raised whenever what is stored or how it is computed changes)
///     12  UInt32    number of sections
///     16  32 bytes  signature: SHA-256 of the source files' names, sizes and contents (`PlaceFile.signature`)
///     48  sections × (UInt64 offset, UInt64 length): where each section lies in the file
///     …   the sections, each at an offset that is a multiple of 8
///
/// A section is a column of fixed-size numbers (Int32, UInt32, Double, Int64 or bytes). A table of texts
/// is two sections: UInt32 offsets (one more than texts) into a blob of UTF-8 bytes. The order and type of
/// the sections is fixed by the version; `PlaceSections.pass` lists them, and reading and writing both
/// walk that one list.
enum PlaceFile {
    static let magic = Array("PMPLACES".utf8)
    static let version: UInt32 = 1
    static let headerSize = 48
    /// The file's name in the gazetteer folder.
    static let name = "places.bin"
    /// What it is made from, in the gazetteer folder.
    static let sources = ["regions.tsv", "divisions.tsv", "cities.tsv", "villages.tsv", "boundaries.bin"]

    /// Why a file was not used.
    enum Refusal: Error, Equatable {
        case missing
        case otherVersion(UInt32)
        case otherSources
        case malformed(String)

        /// Said to the user when places are built from the sources instead.
        var reason: String {
            switch self {
            case .missing: "is missing"
            case .otherVersion(let version):
                "is of another version (\(version); this photomap reads \(PlaceFile.version))"
            case .otherSources: "was made from other gazetteer files"
            case .malformed(let reason): "is damaged (\(reason))"
            }
        }
    }

    /// The sources' signature (`SourceSignature`).
    static func signature(of folder: URL) -> [UInt8] {
        SourceSignature.of(sources.map { folder.appendingPathComponent($0) })
    }

    /// Reads a file's sections in order, each checked to lie in the file.
    struct Reader: PlaceFileSections {
        private let bytes: FlatBytes
        private let sections: Int
        private var next = 0

        /// Checks the header of `bytes`: magic, version, signature, and that the section table fits.
        init(_ bytes: FlatBytes, signature: [UInt8]) throws(Refusal) {
            self.bytes = bytes
            guard let base = bytes.base, bytes.count >= PlaceFile.headerSize,
                UnsafeRawBufferPointer(start: base, count: 8).elementsEqual(PlaceFile.magic)
            else { throw .malformed("not a place data file") }
            let version = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            guard version == PlaceFile.version else { throw .otherVersion(version) }
            // The numbers are read as the machine's: a big-endian machine builds from the sources.
            guard 1.littleEndian == 1 else { throw .otherVersion(version) }
            sections = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))
            guard PlaceFile.headerSize + sections * 16 <= bytes.count else { throw .malformed("cut short") }
            guard UnsafeRawBufferPointer(start: base + 16, count: 32).elementsEqual(signature) else {
                throw .otherSources
            }
        }

        /// Reads the next section into `column`.
        mutating func pass<Element: FlatValue>(_ column: inout FlatColumn<Element>) throws(Refusal) {
            guard next < sections, let base = bytes.base else { throw .malformed("fewer sections than expected") }
            let entry = PlaceFile.headerSize + next * 16
            let offset = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: entry, as: UInt64.self))
            let length = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: entry + 8, as: UInt64.self))
            let stride = UInt64(MemoryLayout<Element>.stride)
            guard offset <= UInt64(bytes.count), length <= UInt64(bytes.count) - offset, length % stride == 0,
                offset % 8 == 0
            else { throw .malformed("section \(next) lies outside the file") }
            next += 1
            column = FlatColumn(bytes, offset: Int(offset), count: Int(length / stride))
        }

        /// Checks that every section was read.
        func finish() throws(Refusal) {
            guard next == sections else { throw .malformed("\(sections - next) sections more than expected") }
        }
    }

    /// Gathers sections, then lays out the file.
    struct Writer: PlaceFileSections {
        private var sections: [[UInt8]] = []

        /// Adds `column` as the next section.
        mutating func pass<Element: FlatValue>(_ column: inout FlatColumn<Element>) {
            sections.append(Array(column.bytes))
        }

        /// The file's bytes.
        func bytes(signature: [UInt8]) -> [UInt8] {
            var file = PlaceFile.magic
            func append<Number: FixedWidthInteger>(_ number: Number) {
                withUnsafeBytes(of: number.littleEndian) { file.append(contentsOf: $0) }
            }
            append(PlaceFile.version)
            append(UInt32(sections.count))
            file.append(contentsOf: signature)
            var offset = PlaceFile.headerSize + sections.count * 16
            for section in sections {
                offset = (offset + 7) / 8 * 8
                append(UInt64(offset))
                append(UInt64(section.count))
                offset += section.count
            }
            for section in sections {
                file.append(contentsOf: [UInt8](repeating: 0, count: (8 - file.count % 8) % 8))
                file.append(contentsOf: section)
            }
            return file
        }
    }
}

/// A walk over places.bin's sections in the file's order: the reader fills each in turn, the writer adds
/// each as the next.
protocol PlaceFileSections {
    /// The next section, a column.
    mutating func pass<Element: FlatValue>(_ column: inout FlatColumn<Element>) throws(PlaceFile.Refusal)
}

extension PlaceFileSections {
    /// The next two sections, a table of texts: its offsets, then its blob.
    mutating func pass(_ strings: inout FlatStrings) throws(PlaceFile.Refusal) {
        var (offsets, blob) = (strings.offsets, strings.blob)
        try pass(&offsets)
        try pass(&blob)
        strings = FlatStrings(offsets: offsets, blob: blob)
    }
}
