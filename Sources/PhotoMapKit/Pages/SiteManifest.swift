import Foundation

/// What each file of an exported site was made from (`PageInputs`' digest) and which file that was
/// (inode, size, modification time), kept in the site as `.photomap-manifest`. A page whose inputs
/// and file are both as recorded is neither rendered nor compared. The file identity is what makes
/// this safe after a crash: a page a killed export replaced no longer matches the old manifest, so
/// it is made again; the manifest itself is written last, whole or not at all.
public final class SiteManifest {
    /// The manifest's name in the site's folder.
    public static let fileName = ".photomap-manifest"
    private static let header = "photomap site manifest 1"

    /// Which file a path held when it was recorded: a rename, a rewrite or a deletion changes it.
    struct FileIdentity: Equatable {
        var inode: UInt64
        var size: Int64
        var modified: Int64

        /// The identity of the file at `path`, or nil when there is none.
        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
            self.init(inode: UInt64(status.st_ino), size: Int64(status.st_size),
                      modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
        }

        init(inode: UInt64, size: Int64, modified: Int64) {
            self.inode = inode
            self.size = size
            self.modified = modified
        }
    }

    /// A file's inputs, 32 bytes kept inline: a manifest holds one for each of a site's ~300,000 files.
    struct Inputs: Equatable {
        var words: SIMD4<UInt64>

        /// Inputs of a SHA-256 digest (`PageInputs.finishDigest()`).
        init(digest: [UInt8]) {
            var words = SIMD4<UInt64>()
            for (index, byte) in digest.prefix(32).enumerated() { words[index / 8] = words[index / 8] << 8 | UInt64(byte) }
            self.words = words
        }

        /// Inputs written as 64 hex digits in a manifest; nil for anything else.
        init?(hex: UnsafeRawBufferPointer) {
            guard hex.count == 64 else { return nil }
            var words = SIMD4<UInt64>()
            for (index, byte) in hex.enumerated() {
                guard let value = UInt8(ascii: byte, radix: 16) else { return nil }
                words[index / 16] = words[index / 16] << 4 | UInt64(value)
            }
            self.words = words
        }

        /// What every placed image is made from: its name is its URL's digest, so only its presence counts.
        static let image = Inputs(digest: [])

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
    /// What the last complete run recorded, and what this one has: one table, not two copies of it.
    private var entries: [String: Entry]
    /// Whether this run recorded a file differently from the last.
    private var recordedChanges = false

    /// The manifest of the site in `root`; an unreadable or unknown one is empty (every page is then
    /// made and compared).
    public init(site root: URL) {
        let file = root.appendingPathComponent(Self.fileName)
        self.file = file
        entries = (try? Data(contentsOf: file)).map(Self.parse) ?? [:]
    }

    /// A manifest kept in memory only.
    public init() {
        file = nil
        entries = [:]
    }

    /// Whether the file at `path` (`fullPath` on disk) was made from `inputs` and is still that file.
    func isCurrent(_ path: String, fullPath: String, inputs: Inputs) -> Bool {
        guard let entry = entries[path], entry.inputs == inputs else { return false }
        // Written or checked in this run already.
        if entry.seen { return true }
        guard FileIdentity(path: fullPath) == entry.identity else { return false }
        entries[path]?.seen = true
        return true
    }

    /// Notes that `path` now holds a file made from `inputs`.
    func record(_ path: String, fullPath: String, inputs: Inputs) {
        // A name that would break the manifest's lines is never recorded: its page is simply made each time.
        guard !path.utf8.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") }), let identity = FileIdentity(path: fullPath) else { return }
        let entry = Entry(inputs: inputs, identity: identity, seen: true)
        if entries.updateValue(entry, forKey: path).map({ $0.inputs != inputs || $0.identity != identity }) ?? true {
            recordedChanges = true
        }
    }

    /// Whether this run recorded `path` already.
    func recordedThisRun(_ path: String) -> Bool {
        entries[path]?.seen == true
    }

    /// The image placed at `stem` plus its extension, when its file is still the one recorded.
    func image(stem: String, root: String) -> String? {
        for path in [stem + ".png", stem + ".jpg"] {
            guard let entry = entries[path] else { continue }
            return isCurrent(path, fullPath: root + "/" + path, inputs: entry.inputs) ? path : nil
        }
        return nil
    }

    /// Whether this run's manifest differs from the last one: a file recorded differently, or one
    /// the last run made that this one did not.
    var changed: Bool { recordedChanges || entries.values.contains { !$0.seen } }

    /// This run's manifest, one `inputs<TAB>inode<TAB>size<TAB>modified<TAB>path` line per file.
    func text() -> String {
        var text = Self.header + "\n"
        for (path, entry) in entries.filter(\.value.seen).sorted(by: { $0.key < $1.key }) {
            text += "\(entry.inputs.hex)\t\(entry.identity.inode)\t\(entry.identity.size)\t\(entry.identity.modified)\t\(path)\n"
        }
        return text
    }

    /// The entries of a manifest's text; an unknown header gives none, a malformed line is skipped.
    /// Read on its bytes: a site of 100,000 photos has 300,000 lines.
    private static func parse(_ data: Data) -> [String: Entry] {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> [String: Entry] in
            var entries: [String: Entry] = [:]
            var lineStart = 0
            var isHeader = true
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                let line = UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd])
                lineStart = lineEnd + 1
                if isHeader {
                    guard String(decoding: line, as: UTF8.self) == header else { return [:] }
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
                      let size = Int64(ascii: fields[2]), let modified = Int64(ascii: fields[3]) else { continue }
                entries[String(decoding: fields[4], as: UTF8.self)] = Entry(
                    inputs: inputs, identity: FileIdentity(inode: inode, size: size, modified: modified))
            }
            return entries
        }
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
