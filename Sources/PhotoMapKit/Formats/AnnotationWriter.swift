// SPDX-License-Identifier: Apache-2.0
/// Writes a listing in one of the open formats to a sink, a record at a time: only a buffer of
/// whole records (64 KB) is held, so 100,000 annotations stream in the memory of a few.
public final class AnnotationWriter {
    /// Records written.
    public private(set) var written = 0
    /// Records the format could not hold (GPX: those without a coordinate).
    public private(set) var leftOut = 0

    private let formatter: any RecordFormatter
    private let sink: (String) throws -> Void
    private var buffer: String
    private static let flushSize = 64 * 1024

    /// A writer of `format` into `sink`, which receives whole records only; `title` names the
    /// collection (KML, GPX) and `extraFields` are the names of the fields each record adds, in order.
    public init(
        format: AnnotationFormat, title: String, extraFields: [String] = [],
        sink: @escaping (String) throws -> Void
    ) {
        formatter = format.formatter(title: title, extraFields: extraFields)
        self.sink = sink
        buffer = formatter.prologue()
    }

    /// Writes one record (or counts it as left out).
    public func write(_ record: OutputRecord) throws {
        guard let text = formatter.record(record, index: written) else {
            leftOut += 1
            return
        }
        written += 1
        buffer += text
        if buffer.utf8.count >= Self.flushSize { try flush() }
    }

    /// Writes the end of the document and hands everything still buffered to the sink.
    public func finish() throws {
        buffer += formatter.epilogue(written: written)
        try flush()
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        let chunk = buffer
        buffer = ""
        buffer.reserveCapacity(Self.flushSize + 4096)
        try sink(chunk)
    }
}
