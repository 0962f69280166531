// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapSupport

/// `--format`, `--json` and `--output` on listings: the terminal's table or an open format, on
/// standard output or written whole to a file.
enum AnnotationOutput {
    /// `--format FORMAT`: "table", or an open format's name.
    static let formatOption = Option<String>.choice(
        "format", ["table"] + AnnotationFormat.allCases.map(\.rawValue),
        "table (the default), json, geojson, kml, gpx or csv; with --output, the default is the file's extension"
    ) { $0 }
    static let jsonFlag = Flag("json", "short for --format json")
    static let outputOption = Option<URL>.file(
        "output", "FILE", "write the listing to FILE, whole or not at all, instead of standard output")

    /// The options every listing command declares.
    static let options = [formatOption.spec, jsonFlag.spec, outputOption.spec]

    /// Where and how a listing goes.
    struct Destination {
        /// The open format, or nil for the table.
        var format: AnnotationFormat?
        /// The file for `--output`, or nil for standard output.
        var file: URL?
    }

    /// What `--format`, `--json` and `--output` ask for.
    static func destination(_ parsed: ParsedArguments) throws(UsageError) -> Destination {
        let named = try parsed.value(formatOption)
        let json = parsed.has(jsonFlag)
        if json, let named, named != "json" {
            throw UsageError("--json is short for --format json; it cannot go with --format \(named)")
        }
        let file = try parsed.value(outputOption)
        let format =
            json
            ? .json
            : named.map { AnnotationFormat(rawValue: $0) }
                ?? file.flatMap { AnnotationFormat(fileName: $0.lastPathComponent) }
        if let file, format == nil, named == nil, !tableExtensions.contains(file.pathExtension.lowercased()) {
            throw UsageError(
                "--output \(file.lastPathComponent): photomap writes no .\(file.pathExtension) files; name it ."
                    + AnnotationFormat.allCases.map(\.rawValue).joined(separator: ", .")
                    + " or .txt (the table), or choose with --format")
        }
        return Destination(format: format, file: file)
    }

    /// The endings of a file `--output` writes the table to when no `--format` is given: none, or .txt.
    static let tableExtensions: Set<String> = ["", "txt"]

    /// Writes a listing: `table(width)`'s lines, or the records in the chosen format. `title` names
    /// the collection (KML, GPX); `extraFields` are the names of the fields each record adds.
    static func write(
        _ records: [OutputRecord], to destination: Destination, title: String, extraFields: [String] = [],
        configuration: Services, console: Console, table: (Int?) -> [String]
    ) throws {
        let staged = try destination.file.map { file in
            do { return try StagedFile(replacing: file) } catch { throw failure(writing: file.path, error) }
        }
        // A file gets what the terminal would: text from a server never carries the API key anywhere.
        let sink: (String) throws -> Void = { text in
            guard let staged else { return console.out(text) }
            do { try staged.write(Console.redact(text, secret: configuration.options.apiKey)) } catch {
                throw failure(writing: staged.path, error)
            }
        }
        guard let format = destination.format else {
            try sink(table(staged == nil ? console.width : nil).map { $0 + "\n" }.joined())
            return try commit(staged, console: console, summary: "")
        }
        let writer = AnnotationWriter(format: format, title: title, extraFields: extraFields, sink: sink)
        for record in records { try writer.write(record) }
        try writer.finish()
        if writer.leftOut > 0 {
            console.warn(
                "\(writer.leftOut) of \(records.count) records have no coordinate and are not in the GPX: a waypoint needs one"
            )
        }
        try commit(staged, console: console, summary: " (\(Quantity.words(writer.written, "record", "records")))")
    }

    /// Puts a written file in place and says so on stderr, so that stdout stays clean.
    private static func commit(_ staged: StagedFile?, console: Console, summary: String) throws {
        guard let staged else { return }
        do { try staged.commit() } catch { throw failure(writing: staged.path, error) }
        console.note("listing written to \(staged.path)\(summary)")
    }

    private static func failure(writing path: String, _ error: any Error) -> CommandFailure {
        let reason = (error as? POSIXError).map { String(cString: strerror($0.code.rawValue)) } ?? "\(error)"
        return CommandFailure("could not write \(path): \(reason)")
    }

    /// A listing's table with `cells(annotation)` then the latitude and longitude, and `footer` below.
    static func table(
        _ annotations: [Annotation], columns: [Table.Column], width: Int?, footer: String,
        cells: (Annotation) -> [String]
    ) -> [String] {
        var table = Table(
            columns: columns + [
                .init(heading: "LATITUDE", alignRight: true),
                .init(heading: "LONGITUDE", alignRight: true),
            ])
        table.rows = annotations.map { annotation in
            cells(annotation)
                + [annotation.coordinate?.latitude, annotation.coordinate?.longitude]
                .map { $0.map { String(format: "%.4f", $0) } ?? "" }
        }
        return table.render(width: width) + [footer]
    }
}
