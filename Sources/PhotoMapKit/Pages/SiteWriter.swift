import Foundation

/// Writes a site's files under a root folder, each only when its content changed, so running an
/// export again rewrites only what changed (and a web server's caches stay valid).
public final class SiteWriter {
    /// The site's folder.
    public let root: URL
    /// Files written because they were new or different.
    public private(set) var written = 0
    /// Files left alone because they were already as they should be.
    public private(set) var unchanged = 0

    /// A writer for the site in `root`.
    public init(root: URL) {
        self.root = root
    }

    /// Writes `text` at `path` (relative to the root) unless the file already holds exactly that.
    public func write(_ text: String, to path: String) throws(PageError) {
        try write(Data(text.utf8), to: path)
    }

    /// Writes `data` at `path` unless the file already holds exactly that; atomically.
    public func write(_ data: Data, to path: String) throws(PageError) {
        let file = root.appendingPathComponent(path)
        if let existing = FileManager.default.contents(atPath: file.path), existing == data {
            unchanged += 1
            return
        }
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(path: file.path, reason: (error as NSError).localizedDescription)
        }
        do {
            try AtomicFile.write(data, to: file)
        } catch {
            throw .writeFailed(path: file.path, reason: String(cString: strerror(error.code.rawValue)))
        }
        written += 1
    }

    /// Copies a file into the site at `path` unless an identical one is there.
    public func copy(_ source: URL, to path: String) throws(PageError) {
        guard let data = FileManager.default.contents(atPath: source.path) else {
            throw .writeFailed(path: source.path, reason: "cannot read it")
        }
        try write(data, to: path)
    }

    /// The link from the page at `from` to the file at `to`, both relative to the root; each path
    /// segment is percent-encoded, so a file named "trip #2.html" or "a:b.html" links as a path.
    public static func link(from page: String, to target: String) -> String {
        let depth = page.split(separator: "/").count - 1
        let encoded = target.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: pathSegmentCharacters) ?? String($0) }
            .joined(separator: "/")
        return String(repeating: "../", count: max(depth, 0)) + encoded
    }

    /// Unreserved characters only: no "#", "?", "%" or ":" (which would read as a scheme) left raw.
    private static let pathSegmentCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
