// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// What each page and file an export writes was made from (an `InputDigest`) and which file that
/// was (inode, size, modification time), kept in the site as `.photomap-manifest`. A page whose inputs
/// and file are both as recorded is neither rendered nor compared. The file identity is what makes
/// this safe after a crash: a page a killed export replaced no longer matches the old manifest, so
/// it is made again; the manifest itself is written last, whole or not at all. Images placed from the
/// cache are not listed: an image's name is its URL's digest, so the site's folder says whether it is there.
public final class SiteManifest {
    /// The manifest's name in the site's folder.
    public static let fileName = ".photomap-manifest"
    private static let header = "photomap site manifest 1"

    /// Which file a path held when it was recorded: a rename, a rewrite or a deletion changes it.
    struct FileIdentity: Equatable, Sendable {
        var inode: UInt64
        var size: Int64
        var modified: Int64

        /// The identity of the file at `path` (relative to the folder open as `directory`, or to the
        /// working directory with `AT_FDCWD`), or nil when there is none. A path relative to the site's
        /// open folder spares the kernel walking the site's own path again for each of its files.
        init?(directory: Int32, path: String) {
            var status = stat()
            guard fstatat(directory, path, &status, 0) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
            self.init(status)
        }

        /// The identity in a file's status (`stat`, `fstat`).
        init(_ status: stat) {
            self.init(
                inode: UInt64(status.st_ino), size: Int64(status.st_size),
                modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
        }

        init(inode: UInt64, size: Int64, modified: Int64) {
            self.inode = inode
            self.size = size
            self.modified = modified
        }
    }

    /// A file's inputs, 32 bytes kept inline: a manifest holds one for each of a site's ~100,000 pages.
    struct Inputs: Equatable {
        var words: SIMD4<UInt64>

        /// Inputs of a SHA-256 digest (`InputDigest.finishDigest()`).
        init(digest: [UInt8]) {
            var words = SIMD4<UInt64>()
            for (index, byte) in digest.prefix(32).enumerated() {
                words[index / 8] = words[index / 8] << 8 | UInt64(byte)
            }
            self.words = words
        }

        /// Inputs written as 64 hex digits in a manifest; nil for anything else.
        init?(hex: UnsafeRawBufferPointer) {
            guard let words = Self.words(hex: hex) else { return nil }
            self.words = SIMD4(words.0, words.1, words.2, words.3)
        }

        /// The four words of 64 lowercase hex digits, most significant first; nil for anything else.
        static func words(hex: UnsafeRawBufferPointer) -> (UInt64, UInt64, UInt64, UInt64)? {
            guard hex.count == 64 else { return nil }
            var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            // Each word whole in a local first: updating a SIMD lane per digit cost more than the rest of a line.
            for index in 0..<4 {
                var word: UInt64 = 0
                for byte in UnsafeRawBufferPointer(rebasing: hex[index * 16..<index * 16 + 16]) {
                    guard let value = UInt8(ascii: byte, radix: 16) else { return nil }
                    word = word << 4 | UInt64(value)
                }
                switch index {
                case 0: words.0 = word
                case 1: words.1 = word
                case 2: words.2 = word
                default: words.3 = word
                }
            }
            return words
        }

        /// As 64 hex digits.
        var hex: String {
            (0..<4).map { index in
                let digits = String(words[index], radix: 16)
                return String(repeating: "0", count: 16 - digits.count) + digits
            }.joined()
        }
    }

    struct Entry: Equatable {
        var inputs: Inputs
        var identity: FileIdentity
        /// Written or checked in this run: only these go into the next manifest.
        var seen = false
    }

    /// The manifest's file; nil for a writer that keeps none (a map page beside other files).
    let file: URL?
    /// What the last complete run recorded, sorted by path (byte order), their paths in one buffer:
    /// a site of 100,000 pages held them in a table of 262,144 slots and a string each (~26 MB).
    private var loaded: [Loaded] = []
    private var loadedPaths: [UInt8] = []
    /// Files recorded in this run that the last run did not record, in the order they came, their paths
    /// in one buffer too (a cold export adds 100,000; a dictionary of them and their paths took ~27 MB),
    /// found by `addedPositions`.
    private var added: [Loaded] = []
    private var addedPaths: [UInt8] = []
    private var addedPositions = PositionTable()
    /// Whether this run recorded a file differently from the last.
    private var recordedChanges = false

    /// A recorded file: its path (`loadedPaths[start..<end]`) and entry.
    private struct Loaded {
        var start: Int32, end: Int32
        var entry: Entry
    }

    /// The manifest of the site in `root`; an unreadable or unknown one is empty (every page is then
    /// made and compared).
    public init(site root: URL) {
        let file = root.appendingPathComponent(Self.fileName)
        self.file = file
        if let data = try? Data(contentsOf: file) { parse(data) }
    }

    /// A manifest kept in memory only.
    public init() {
        file = nil
    }

    /// Whether the file at `path` was made from `inputs` and is still that file (`identity` looks at it).
    func isCurrent(_ path: String, inputs: Inputs, identity: (String) -> FileIdentity?) -> Bool {
        var current = false
        update(path) { entry in
            guard entry.inputs == inputs else { return }
            // Written or checked in this run already.
            if entry.seen { return current = true }
            guard identity(path) == entry.identity else { return }
            entry.seen = true
            current = true
        }
        return current
    }

    /// Notes that `path` now holds a file made from `inputs` (`identity` looks at it).
    func record(_ path: String, inputs: Inputs, identity: (String) -> FileIdentity?) {
        // A name that would break the manifest's lines is never recorded: its page is simply made each time.
        guard !path.utf8.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") }),
            let identity = identity(path)
        else { return }
        let recorded = Entry(inputs: inputs, identity: identity, seen: true)
        var found = false
        update(path) { entry in
            found = true
            if entry.inputs != inputs || entry.identity != identity { recordedChanges = true }
            entry = recorded
        }
        if !found {
            var path = path
            let start = Int32(addedPaths.count)
            addedPaths += path.utf8
            added.append(Loaded(start: start, end: Int32(addedPaths.count), entry: recorded))
            let hash = path.withUTF8 { PositionTable.hash(UnsafeRawBufferPointer($0)) }
            addedPositions.insert(added.count - 1, hash: hash) { index in
                addedPaths.withUnsafeBytes { paths in
                    PositionTable.hash(UnsafeRawBufferPointer(rebasing: paths[range(added[index])]))
                }
            }
            recordedChanges = true
        }
    }

    /// Keeps the files under `folder` (ending in "/") as the last run recorded them, unlooked at: the
    /// tiles of a page found current, which are made only with it. (Files added in this run are seen.)
    func keep(under folder: String) {
        var index = search(folder).index
        while index < loaded.count, loadedPath(index).starts(with: folder.utf8) {
            loaded[index].entry.seen = true
            index += 1
        }
    }

    /// The files the last run made that this one did not: pages of places, photos or map tiles it no longer
    /// shows (a photo a geofence now hides must not stay on a page left behind).
    func leftBehind() -> [String] {
        loaded.indices.filter { !loaded[$0].entry.seen }.map { String(decoding: loadedPath($0), as: UTF8.self) }
    }

    /// Whether this run recorded `path` already.
    func recordedThisRun(_ path: String) -> Bool {
        var seen = false
        update(path) { seen = $0.seen }
        return seen
    }

    /// Whether this run's manifest differs from the last one: a file recorded differently, or one
    /// the last run made that this one did not.
    var changed: Bool { recordedChanges || loaded.contains { !$0.entry.seen } }

    /// This run's manifest, one `inputs<TAB>inode<TAB>size<TAB>modified<TAB>path` line per file, sorted by
    /// path: the files recorded last time and seen again, merged with those added in this run.
    func data() -> Data {
        let addedOrder = added.indices.sorted { addedPath($0).lexicographicallyPrecedes(addedPath($1)) }
        var data = Data()
        data.reserveCapacity((loaded.count + added.count) * 110 + 32)
        data.append(contentsOf: (Self.header + "\n").utf8)
        func append(_ entry: Entry, _ path: some Sequence<UInt8>) {
            let fields =
                "\(entry.inputs.hex)\t\(entry.identity.inode)\t\(entry.identity.size)\t\(entry.identity.modified)\t"
            data.append(contentsOf: fields.utf8)
            data.append(contentsOf: path)
            data.append(UInt8(ascii: "\n"))
        }
        var next = 0
        func appendAdded(before path: ArraySlice<UInt8>?) {
            while next < addedOrder.count,
                path.map({ addedPath(addedOrder[next]).lexicographicallyPrecedes($0) }) ?? true
            {
                append(added[addedOrder[next]].entry, addedPath(addedOrder[next]))
                next += 1
            }
        }
        for index in loaded.indices where loaded[index].entry.seen {
            appendAdded(before: loadedPath(index))
            append(loaded[index].entry, loadedPath(index))
        }
        appendAdded(before: nil)
        return data
    }

    /// Changes the entry of `path`, loaded or added, if there is one.
    private func update(_ path: String, _ change: (inout Entry) -> Void) {
        let (index, found) = search(path)
        if found {
            change(&loaded[index].entry)
        } else if let index = addedPosition(path) {
            change(&added[index].entry)
        }
    }

    /// The path of `loaded[index]`.
    private func loadedPath(_ index: Int) -> ArraySlice<UInt8> {
        loadedPaths[range(loaded[index])]
    }

    /// The path of `added[index]`.
    private func addedPath(_ index: Int) -> ArraySlice<UInt8> {
        addedPaths[range(added[index])]
    }

    /// Where a recorded file's path is in its buffer.
    private func range(_ file: Loaded) -> Range<Int> {
        Int(file.start)..<Int(file.end)
    }

    /// The index in `added` of `path`, if this run added it.
    private func addedPosition(_ path: String) -> Int? {
        var path = path
        return path.withUTF8 { key in
            addedPaths.withUnsafeBytes { paths in
                addedPositions.position(hash: PositionTable.hash(UnsafeRawBufferPointer(key))) { index in
                    UnsafeRawBufferPointer(rebasing: paths[range(added[index])]).elementsEqual(key)
                }
            }
        }
    }

    /// The first loaded entry whose path is not before `path`, and whether its path is `path`: a binary
    /// search comparing bytes (memcmp), as the manifest is sorted.
    private func search(_ path: String) -> (index: Int, found: Bool) {
        var path = path
        return path.withUTF8 { key in
            loadedPaths.withUnsafeBufferPointer { paths in
                /// How `loaded[index]`'s path orders against `key`, as memcmp says.
                func order(_ index: Int) -> Int {
                    let start = Int(loaded[index].start), count = Int(loaded[index].end) - start
                    let common = min(count, key.count)
                    if common > 0, let base = paths.baseAddress, let keyBase = key.baseAddress {
                        let bytes = memcmp(base + start, keyBase, common)
                        if bytes != 0 { return Int(bytes) }
                    }
                    return count - key.count
                }
                var low = 0, high = loaded.count
                while low < high {
                    let middle = (low + high) / 2
                    if order(middle) < 0 { low = middle + 1 } else { high = middle }
                }
                return (low, low < loaded.count && order(low) == 0)
            }
        }
    }

    /// Loads the entries of a manifest's text; an unknown header gives none, a malformed line is skipped,
    /// and of a path given twice the last counts. Read on its bytes: a site of 100,000 photos has 100,000 lines.
    private func parse(_ data: Data) {
        guard data.count < Int32.max else { return }
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            // A line takes about 100 bytes, 30 of them its path.
            loaded.reserveCapacity(bytes.count / 100)
            loadedPaths.reserveCapacity(bytes.count / 3)
            var lineStart = 0
            var isHeader = true
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                let line = UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd])
                lineStart = lineEnd + 1
                if isHeader {
                    guard String(decoding: line, as: UTF8.self) == Self.header else { return }
                    isHeader = false
                    continue
                }
                var fields: [UnsafeRawBufferPointer] = []
                var fieldStart = 0
                for index in 0..<line.count where line[index] == UInt8(ascii: "\t") && fields.count < 4 {
                    fields.append(UnsafeRawBufferPointer(rebasing: line[fieldStart..<index]))
                    fieldStart = index + 1
                }
                fields.append(UnsafeRawBufferPointer(rebasing: line[fieldStart...]))
                guard fields.count == 5, let inputs = Inputs(hex: fields[0]), let inode = UInt64(ascii: fields[1]),
                    let size = Int64(ascii: fields[2]), let modified = Int64(ascii: fields[3])
                else { continue }
                let start = Int32(loadedPaths.count)
                loadedPaths.append(contentsOf: fields[4])
                loaded.append(
                    Loaded(
                        start: start, end: Int32(loadedPaths.count),
                        entry: Entry(
                            inputs: inputs, identity: FileIdentity(inode: inode, size: size, modified: modified))))
            }
        }
        sortLoaded()
    }

    /// Sorts the loaded entries by path unless they are (as written), keeping the last of a repeated path.
    private func sortLoaded() {
        let inOrder = loaded.indices.dropFirst().allSatisfy {
            loadedPath($0 - 1).lexicographicallyPrecedes(loadedPath($0))
        }
        guard !inOrder else { return }
        let order = loaded.indices.sorted {
            loadedPath($0).elementsEqual(loadedPath($1))
                ? $0 < $1 : loadedPath($0).lexicographicallyPrecedes(loadedPath($1))
        }
        var sorted: [Loaded] = []
        sorted.reserveCapacity(loaded.count)
        for (position, index) in order.enumerated() {
            if position + 1 < order.count, loadedPath(index).elementsEqual(loadedPath(order[position + 1])) { continue }
            sorted.append(loaded[index])
        }
        loaded = sorted
    }
}

private extension FixedWidthInteger {
    /// A decimal number from ASCII digits, without making a String first.
    init?(ascii digits: UnsafeRawBufferPointer) {
        guard !digits.isEmpty, digits.count <= 20 else { return nil }
        var value: Self = 0
        for digit in digits {
            guard let digit = UInt8(ascii: digit, radix: 10) else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Self(digit))
            guard !overflow, !overflow2 else { return nil }
            value = sum
        }
        self = value
    }
}

private extension UInt8 {
    /// The value of an ASCII digit (lowercase letters past 9) in `radix`, or nil.
    init?(ascii byte: UInt8, radix: UInt8) {
        let value: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 10
        default: return nil
        }
        guard value < radix else { return nil }
        self = value
    }
}
