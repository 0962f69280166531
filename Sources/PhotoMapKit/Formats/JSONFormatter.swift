// SPDX-License-Identifier: Apache-2.0
/// `--format json`: a pretty-printed array of annotation objects, one record after another.
struct JSONFormatter: RecordFormatter {
    func prologue() -> String { "[" }

    func record(_ record: OutputRecord, index: Int) -> String? {
        (index == 0 ? "\n  " : ",\n  ") + JSONText.object(record.fields, prettyAtDepth: 1)
    }

    func epilogue(written: Int) -> String { written == 0 ? "]\n" : "\n]\n" }
}
