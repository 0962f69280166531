// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Bytes that stay put for as long as a column reads them: a copy on the heap, or a file mapped
/// read-only (its pages the kernel's page cache, shared by every process that maps the file).
final class FlatBytes: @unchecked Sendable {
    // Never written after `init`; freed or unmapped only in `deinit`.
    let base: UnsafeRawPointer?
    let count: Int
    private let mapped: Bool

    /// A heap copy of `bytes`.
    init(copying bytes: UnsafeRawBufferPointer) {
        if let source = bytes.baseAddress, !bytes.isEmpty {
            let copy = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 8)
            copy.copyMemory(from: source, byteCount: bytes.count)
            base = UnsafeRawPointer(copy)
        } else {
            base = nil
        }
        count = bytes.count
        mapped = false
    }

    /// `file` mapped read-only; nil when it cannot be opened or mapped (missing, a folder, empty).
    init?(mapping file: URL) {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else {
            return nil
        }
        let size = Int(status.st_size)
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            return nil
        }
        base = UnsafeRawPointer(address)
        count = size
        mapped = true
    }

    deinit {
        guard let base else { return }
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: base), count)
        } else {
            base.deallocate()
        }
    }
}

/// A value a column holds: a fixed-size number, stored little-endian, with a value to answer for an
/// index outside the column (only a damaged file's numbers lead there).
protocol FlatValue: BitwiseCopyable {
    static var zero: Self { get }
}

extension Int32: FlatValue {}
extension UInt32: FlatValue {}
extension UInt8: FlatValue {}
extension Int64: FlatValue {}
extension Double: FlatValue {}

/// A read-only run of numbers, from an array or from part of a mapped file. Every read is checked: an
/// index outside the column reads `Element.zero`, never another byte.
struct FlatColumn<Element: FlatValue>: @unchecked Sendable {
    // `owner` keeps `base` valid; nothing writes through it.
    private let owner: FlatBytes?
    private let base: UnsafeRawPointer?
    let count: Int

    /// A column of `values`, copied.
    init(_ values: [Element]) {
        let owner = values.withUnsafeBytes { FlatBytes(copying: $0) }
        self.owner = owner
        base = owner.base
        count = values.count
    }

    /// `count` values at byte `offset` of `owner`, which the caller has checked hold them.
    init(_ owner: FlatBytes, offset: Int, count: Int) {
        self.owner = owner
        base = count == 0 ? nil : owner.base.map { $0 + offset }
        self.count = base == nil ? 0 : count
    }

    @inline(__always) subscript(index: Int) -> Element {
        guard index >= 0, index < count, let base else { return .zero }
        return base.loadUnaligned(fromByteOffset: index &* MemoryLayout<Element>.stride, as: Element.self)
    }

    /// The column's bytes, as a file stores them.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base, count: count * MemoryLayout<Element>.stride)
    }

    /// Its values as an array.
    var values: [Element] { (0..<count).map { self[$0] } }
}

/// Texts numbered from 0: text `i` is the UTF-8 bytes `offsets[i]..<offsets[i + 1]` of one blob.
struct FlatStrings: Sendable {
    let offsets: FlatColumn<UInt32>
    let blob: FlatColumn<UInt8>

    /// `texts`, in one blob.
    init(_ texts: [String]) {
        var offsets: [UInt32] = [0]
        var blob: [UInt8] = []
        for text in texts {
            blob.append(contentsOf: text.utf8)
            offsets.append(UInt32(blob.count))
        }
        self.init(offsets: FlatColumn(offsets), blob: FlatColumn(blob))
    }

    init(offsets: FlatColumn<UInt32>, blob: FlatColumn<UInt8>) {
        self.offsets = offsets
        self.blob = blob
    }

    var count: Int { max(offsets.count - 1, 0) }

    /// Text `index`; "" outside the table, and the blob's bytes only however its offsets lie.
    subscript(index: Int) -> String {
        let end = min(Int(offsets[index + 1]), blob.count)
        let start = min(Int(offsets[index]), end)
        guard index >= 0, index < count, start < end else { return "" }
        let bytes = blob.bytes
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// All its texts.
    var all: [String] { (0..<count).map { self[$0] } }
}
