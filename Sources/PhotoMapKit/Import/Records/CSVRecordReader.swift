// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Reads RFC 4180 CSV from a file descriptor in chunks, a record at a time: fields may be quoted, with
/// commas, line breaks and doubled quotes inside; lines end in LF or CRLF; a UTF-8 byte order mark at the
/// start is dropped. No record is held past `maximumRecordBytes` (decided before reading): a longer one is
/// stepped over to its end and reported, and the reading goes on. Lines count LF bytes, so a record is
/// named by the line it starts on (the header is line 1).
struct CSVRecordReader {
    /// What one record gave: its fields' text, or why it cannot be read.
    enum Row {
        case fields([String])
        case unreadable(String)
    }

    /// Longer records are skipped: ample for six fields of at most 4 KB.
    static let maximumRecordBytes = 64 << 10
    static let chunkBytes = 1 << 20

    private let descriptor: Int32
    private let maximumRecordBytes: Int

    init(descriptor: Int32, maximumRecordBytes: Int = Self.maximumRecordBytes) {
        self.descriptor = descriptor
        self.maximumRecordBytes = maximumRecordBytes
    }

    /// Calls `body` with each record and the line it starts on, until the end of the file or `body`
    /// returns false, and `chunkRead` with the bytes read so far after each chunk; throws when the file
    /// cannot be read.
    func forEach(chunkRead: (Int) -> Void = { _ in }, _ body: (_ line: Int, _ row: Row) throws -> Bool) throws {
        var total = 0
        var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        var state = State(maximumRecordBytes: maximumRecordBytes)
        var first = true
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw RecordsError.unreadable(reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            total += count
            var start = 0
            if first {
                first = false
                if count >= 3, chunk[0] == 0xEF, chunk[1] == 0xBB, chunk[2] == 0xBF { start = 3 }
            }
            for index in start..<count {
                if let (line, row) = state.take(chunk[index]) {
                    guard try body(line, row) else { return }
                }
            }
            chunkRead(total)
        }
        if let (line, row) = state.finish() { _ = try body(line, row) }
    }

    /// The parser's state between bytes.
    private struct State {
        let maximumRecordBytes: Int
        var line = 1
        var recordLine = 1
        var fields: [String] = []
        var field: [UInt8] = []
        var recordBytes = 0
        var quoted = false
        var inQuotes = false
        var quoteSeen = false
        var problem: String?

        init(maximumRecordBytes: Int) {
            self.maximumRecordBytes = maximumRecordBytes
        }

        /// Takes one byte; returns a record when it ended one.
        mutating func take(_ byte: UInt8) -> (Int, Row)? {
            if byte == 0x0A { line += 1 }
            recordBytes += 1
            if recordBytes > maximumRecordBytes, problem == nil {
                problem = "longer than \(maximumRecordBytes >> 10) KB"
                field = []
                fields = []
            }
            if inQuotes {
                if quoteSeen {
                    quoteSeen = false
                    if byte == 0x22 {
                        append(byte)
                        return nil
                    }
                    inQuotes = false
                } else {
                    if byte == 0x22 {
                        quoteSeen = true
                    } else {
                        append(byte)
                    }
                    return nil
                }
            }
            switch byte {
            case 0x2C:
                endField()
            case 0x0A:
                return endRecord()
            case 0x0D:
                break
            case 0x22:
                if field.isEmpty && !quoted {
                    quoted = true
                    inQuotes = true
                } else if problem == nil {
                    problem = "a quote inside a field that is not quoted, or after its closing quote"
                }
            default:
                if quoted, problem == nil { problem = "text after a field's closing quote" }
                append(byte)
            }
            return nil
        }

        /// The record left at the end of the file, if any.
        mutating func finish() -> (Int, Row)? {
            if inQuotes && !quoteSeen, problem == nil { problem = "a quoted field is not closed" }
            return recordBytes == 0 ? nil : endRecord()
        }

        private mutating func append(_ byte: UInt8) {
            if problem == nil { field.append(byte) }
        }

        private mutating func endField() {
            if problem == nil {
                if let text = String(validating: field, as: UTF8.self) {
                    fields.append(text)
                } else {
                    problem = "not UTF-8 text"
                }
            }
            field.removeAll(keepingCapacity: true)
            quoted = false
        }

        private mutating func endRecord() -> (Int, Row)? {
            let blank = fields.isEmpty && field.isEmpty && !quoted && problem == nil
            endField()
            defer {
                fields = []
                problem = nil
                recordBytes = 0
                recordLine = line
            }
            if blank { return nil }
            return (recordLine, problem.map(Row.unreadable) ?? .fields(fields))
        }
    }
}
