// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel
import PhotoMapSupport

/// The images an export found or placed in its site in this run, by photo and size: asked for twice per
/// image (which to fetch, then the pages' inputs), and held for 200,000 images at 100,000 photos. A path
/// of the usual form `{folder}{64 hex digits}.{png|jpg}` (an image named by its URL's SHA-256) is held
/// as its 32 bytes, its folder's index and its extension, a photo's square and medium image together
/// under one key; any other path or size as its text.
struct PlacedImages {
    /// A path of the usual form, compactly.
    private struct Compact {
        var digest: (UInt64, UInt64, UInt64, UInt64)
        /// Index in `folders` plus one; 0 for no image.
        var folder: UInt8 = 0
        var isPNG = false
    }

    /// The square and the medium image of one photo.
    private struct Pair {
        var square = Compact(digest: (0, 0, 0, 0)), medium = Compact(digest: (0, 0, 0, 0))
    }

    private struct Key: Hashable {
        let photo: String
        let size: PhotoSize
    }

    /// The photos with a compact image, and their pairs, in the order they came; `positions` finds a photo's.
    private var photos: [String] = []
    private var pairs: [Pair] = []
    private var positions = PositionTable()
    private var others: [Key: String] = [:]
    /// The folders of compact paths (a site's `squares/` and `images/`, each with the prefix).
    private var folders: [String] = []

    /// Makes room for `count` more images, grown by half at least (it is asked a batch at a time), so
    /// that the pairs of 100,000 photos are not briefly held twice while their array doubles.
    mutating func reserve(images count: Int) {
        let needed = pairs.count + (count + 1) / 2
        guard needed > pairs.capacity else { return }
        let capacity = max(needed, pairs.capacity + pairs.capacity / 2)
        photos.reserveCapacity(capacity)
        pairs.reserveCapacity(capacity)
    }

    /// Where photo `photo`'s pair is, if it has one.
    private func position(of photo: String) -> Int? {
        positions.position(hash: photo.hashValue) { photos[$0] == photo }
    }

    /// Changes photo `photo`'s pair, made first if it has none.
    private mutating func updatePair(_ photo: String, _ change: (inout Pair) -> Void) {
        if let index = position(of: photo) { return change(&pairs[index]) }
        var pair = Pair()
        change(&pair)
        photos.append(photo)
        pairs.append(pair)
        positions.insert(pairs.count - 1, hash: photo.hashValue) { photos[$0].hashValue }
    }

    /// The path of photo `photo`'s image of `size` placed in this run, if one was.
    subscript(photo: String, size: PhotoSize) -> String? {
        get {
            guard size != .largeSquare, let index = position(of: photo) else {
                return others[Key(photo: photo, size: size)]
            }
            let compact = size == .square ? pairs[index].square : pairs[index].medium
            guard compact.folder > 0 else { return others[Key(photo: photo, size: size)] }
            return path(of: compact)
        }
        set {
            guard let path = newValue else { return }
            guard size != .largeSquare, let compact = compact(path) else {
                others[Key(photo: photo, size: size)] = path
                if let index = position(of: photo) {
                    if size == .square { pairs[index].square.folder = 0 } else { pairs[index].medium.folder = 0 }
                }
                return
            }
            others[Key(photo: photo, size: size)] = nil
            updatePair(photo) { pair in
                if size == .square { pair.square = compact } else { pair.medium = compact }
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `path` compactly, when it has the usual form (its folder held, up to 255 of them).
    private mutating func compact(_ path: String) -> Compact? {
        var path = path
        guard let (compact, folderEnd) = path.withUTF8({ bytes in Self.digits(bytes) }) else { return nil }
        let folder = path.utf8.prefix(folderEnd)
        var index = folders.firstIndex { $0.utf8.elementsEqual(folder) }
        if index == nil, folders.count < 255 {
            folders.append(String(decoding: folder, as: UTF8.self))
            index = folders.count - 1
        }
        guard let index else { return nil }
        var held = compact
        held.folder = UInt8(index + 1)
        return held
    }

    /// The digits and extension of a path ending in `{64 lowercase hex digits}.{png|jpg}`, and where they start.
    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>) -> (Compact, Int)? {
        let digitsStart = bytes.count - 68
        guard digitsStart >= 0, bytes[bytes.count - 4] == UInt8(ascii: ".") else { return nil }
        let ending = bytes[(bytes.count - 3)...]
        let isPNG = ending.elementsEqual("png".utf8)
        guard isPNG || ending.elementsEqual("jpg".utf8) else { return nil }
        let hex = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[digitsStart..<(digitsStart + 64)]))
        guard let words = SiteManifest.Inputs.words(hex: hex) else { return nil }
        return (Compact(digest: words, isPNG: isPNG), digitsStart)
    }

    private func path(of compact: Compact) -> String {
        var bytes = Array(folders[Int(compact.folder) - 1].utf8)
        bytes.reserveCapacity(bytes.count + 68)
        for word in [compact.digest.0, compact.digest.1, compact.digest.2, compact.digest.3] {
            for shift in stride(from: 60, through: 0, by: -4) {
                bytes.append(Self.hexDigits[Int(word >> UInt64(shift) & 0xF)])
            }
        }
        bytes += (compact.isPNG ? ".png" : ".jpg").utf8
        return String(decoding: bytes, as: UTF8.self)
    }
}
