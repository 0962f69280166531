// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Walks folders for import: every regular file below the roots (symbolic links followed, each folder
/// entered once, so a link loop ends), with what was met on the way that could not be walked. Nothing in
/// the kernel's folders is walked, whatever link or root leads there: their files say they are empty
/// and never end (`/proc/self/pagemap`), or stand for devices. Paths are bytes: a name need not be UTF-8.
struct FileWalker {
    /// A regular file found.
    struct Found {
        /// Its path as given (the root, then the names below it).
        let path: [UInt8]
        /// What `stat` said of it.
        let state: LocalFileState
    }

    /// Files found, in a stable order (names sorted within each folder).
    private(set) var files: [Found] = []
    /// Paths that could not be walked, and why.
    private(set) var problems: [(path: [UInt8], reason: String)] = []
    private var enteredFolders = Set<[Int64]>()

    /// The kernel's folders, never walked or read.
    static let kernelFolders = ["/proc", "/sys", "/dev"].map { Array($0.utf8) }

    /// Walks `roots` (files or folders).
    static func walk(_ roots: [[UInt8]]) -> FileWalker {
        var walker = FileWalker()
        for root in roots { walker.visit(root, isRoot: true) }
        return walker
    }

    private mutating func visit(_ path: [UInt8], isRoot: Bool = false) {
        var info = stat()
        let isLink = lstat(Self.cString(path), &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
        // Where a link, a root or a folder really is: the checks after it see the target's own mode.
        if isLink || isRoot || info.st_mode & S_IFMT == S_IFDIR, let kernel = Self.kernelFolder(holding: path) {
            problems.append((path, "in \(kernel), which is not read"))
            return
        }
        guard stat(Self.cString(path), &info) == 0 else {
            let code = errno
            problems.append(
                (
                    path,
                    code == ELOOP
                        ? "a loop of symbolic links"
                        : code == ENOENT && !isRoot
                            ? "a broken symbolic link"
                            : String(cString: strerror(code))
                ))
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            files.append(
                Found(
                    path: path,
                    state: .init(
                        size: Int64(info.st_size), modified: modified,
                        inode: Int64(bitPattern: UInt64(info.st_ino)))))
        case S_IFDIR:
            // A folder reached twice (a link back up, or to a folder walked already) is walked once.
            guard
                enteredFolders.insert([
                    Int64(bitPattern: UInt64(info.st_dev)),
                    Int64(bitPattern: UInt64(info.st_ino)),
                ]).inserted
            else { return }
            guard let folder = opendir(Self.cString(path)) else {
                problems.append((path, String(cString: strerror(errno))))
                return
            }
            var names: [[UInt8]] = []
            while let entry = readdir(folder) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                if name == [0x2E] || name == [0x2E, 0x2E] { continue }
                names.append(name)
            }
            closedir(folder)
            let base = path.last == 0x2F ? path : path + [0x2F]
            for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) { visit(base + name) }
        default:
            if isRoot { problems.append((path, "not a file or folder")) }
        }
    }

    /// The kernel's folder (`/proc`, `/sys`, `/dev`) that `path` is in once its links are resolved, or nil
    /// (nil too when it cannot be resolved: the walk then says why).
    static func kernelFolder(holding path: [UInt8]) -> String? {
        guard let resolved = realpath(cString(path), nil) else { return nil }
        defer { free(resolved) }
        let real = Array(UnsafeBufferPointer(start: resolved, count: strlen(resolved))).map { UInt8(bitPattern: $0) }
        return kernelFolders.first { real == $0 || real.starts(with: $0 + [0x2F]) }.map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// A path's bytes as C takes them, zero-terminated.
    static func cString(_ path: [UInt8]) -> [CChar] {
        path.map { CChar(bitPattern: $0) } + [0]
    }

    /// A path as a report line shows it: UTF-8 where it is, `\xNN` for other bytes, control characters
    /// escaped (a name holding a newline stays on its line).
    static func shown(_ path: [UInt8]) -> String {
        var text = ""
        var rest = path[...]
        while !rest.isEmpty {
            var iterator = rest.makeIterator()
            var decoder = UTF8()
            var consumed = 0
            switch decoder.decode(&iterator) {
            case let .scalarValue(scalar):
                consumed = String(scalar).utf8.count
                if scalar.properties.generalCategory == .control || scalar == "\\" {
                    text +=
                        scalar == "\n"
                        ? "\\n"
                        : scalar == "\t"
                            ? "\\t"
                            : scalar == "\\"
                                ? "\\\\"
                                : String(format: "\\x%02X", scalar.value)
                } else {
                    text.unicodeScalars.append(scalar)
                }
            case .error, .emptyInput:
                consumed = 1
                text += String(format: "\\x%02X", rest[rest.startIndex])
            }
            rest = rest.dropFirst(consumed)
        }
        return text
    }
}
