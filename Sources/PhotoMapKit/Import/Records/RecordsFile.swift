// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A records file given to `import --records`: CSV (by its header line) or GeoJSON (by its first
/// character), told apart before any record is read, so that any other file is refused with nothing read
/// into the catalog. Only a regular file is read; paths of images in it are taken from its folder.
public enum RecordsFile {
    /// A record read, or why a row was skipped, with the line it starts on.
    public typealias Row = (line: Int, record: Result<PhotoRecord, RecordProblem>)

    /// Calls `body` with each row of the file at `path`, in order; throws `RecordsError` for a file that
    /// cannot be read or is no records file, before `body` is first called (GeoJSON, read whole, is
    /// checked whole first; CSV by its header). `progress` is told how much of how much is read: bytes of
    /// CSV, features of GeoJSON.
    public static func read(
        path: String, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }, _ body: (Row) throws -> Void
    ) throws {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL
        let folder = absolute.deletingLastPathComponent().path
        let descriptor = open(absolute.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw RecordsError.unreadable(reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw RecordsError.unreadable(reason: "not a regular file")
        }
        // Blocking again: a regular file never waits, and chunked reads must not see EAGAIN.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        if try startsWithBrace(descriptor) {
            let size = Int(info.st_size)
            guard size <= GeoJSONRecordReader.maximumBytes else { throw RecordsError.tooLarge(bytes: size) }
            let rows = try GeoJSONRecordReader.read(try bytes(descriptor, size: size), folder: folder)
            for (index, row) in rows.enumerated() {
                try body(row)
                if index % 10_000 == 9_999 || index == rows.count - 1 { progress(index + 1, rows.count) }
            }
            return
        }
        var headerSeen = false
        let size = Int(info.st_size)
        try CSVRecordReader(descriptor: descriptor).forEach(chunkRead: { progress($0, max(size, $0)) }) { line, row in
            guard headerSeen else {
                guard case .fields(let names) = row,
                    names.map({ $0.trimmingCharacters(in: .whitespaces) }) == PhotoRecord.columns
                else { throw RecordsError.notRecords }
                headerSeen = true
                return true
            }
            switch row {
            case .unreadable(let reason): try body((line, .failure(RecordProblem(reason))))
            case .fields(let fields) where fields.count != PhotoRecord.columns.count:
                try body((line, .failure(RecordProblem("has \(fields.count) fields, not 6"))))
            case .fields(let fields):
                try body(
                    (
                        line,
                        PhotoRecord.make(
                            id: fields[0], title: fields[1], taken: fields[2], latitude: fields[3],
                            longitude: fields[4], image: fields[5], folder: folder)
                    ))
            }
            return true
        }
        guard headerSeen else { throw RecordsError.notRecords }
    }

    /// Whether the first character after a byte order mark and white space is `{` (a JSON object).
    private static func startsWithBrace(_ descriptor: Int32) throws -> Bool {
        var head = [UInt8](repeating: 0, count: 4096)
        let count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw RecordsError.unreadable(reason: String(cString: strerror(errno))) }
        var bytes = head.prefix(count)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
    }

    /// The file's `size` bytes; a file that is shorter or longer now changed while read.
    private static func bytes(_ descriptor: Int32, size: Int) throws -> Data {
        var data = Data(count: size + 1)
        var total = 0
        try data.withUnsafeMutableBytes { buffer in
            while total < buffer.count {
                let count = pread(
                    descriptor, buffer.baseAddress?.advanced(by: total), buffer.count - total, off_t(total))
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { throw RecordsError.unreadable(reason: String(cString: strerror(errno))) }
                if count == 0 { break }
                total += count
            }
        }
        guard total == size else { throw RecordsError.unreadable(reason: "it changed while it was read") }
        data.count = size
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
        return data
    }
}
