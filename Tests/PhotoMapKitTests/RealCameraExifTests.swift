// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// The EXIF of real cameras' and phones' files, read as exiftool reads it. The files are goexif's samples
/// (github.com/rwcarlsen/goexif, BSD-2-Clause, Copyright 2012 Robert Carlsen & Contributors), which Debian's
/// golang-github-rwcarlsen-goexif-dev installs: 58 JPEGs from cameras and phones of 2003–2014 with their
/// image data cut away, and three whose EXIF is broken on purpose. They are read from there, not copied.
@Suite("EXIF of real cameras' files, against exiftool")
struct RealCameraExifTests {
    static let folder = URL(fileURLWithPath: "/usr/share/gocode/src/github.com/rwcarlsen/goexif/exif")
    static let exiftool = "/usr/bin/exiftool"

    /// The HTC One M8's degrees as text with decimal commas, where photomap and exiftool differ (see
    /// `ExifReader.degreeParts(text:)`).
    static let htcFile = "geodegrees_as_string.jpg"

    /// The samples in name order, then the camera sample beside them; nil when goexif's samples or exiftool
    /// are not installed.
    static func samples() throws -> [URL]? {
        let samples = folder.appendingPathComponent("samples")
        guard FileManager.default.fileExists(atPath: samples.path),
            FileManager.default.isExecutableFile(atPath: exiftool)
        else {
            let missing = "Debian's golang-github-rwcarlsen-goexif-dev or libimage-exiftool-perl"
            Issue.record("\(missing) is not installed: scripts/install-deps installs both")
            return nil
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: samples.path).filter { $0.hasSuffix(".jpg") }
        return names.sorted().map { samples.appendingPathComponent($0) } + [
            folder.appendingPathComponent("sample1.jpg")
        ]
    }

    /// The three whose EXIF is broken on purpose (a tag's size past the block, offsets that loop).
    static let broken = ["huge_tag_exif.jpg", "infinite_loop_exif.jpg", "max_uint32_exif.jpg"].map {
        folder.appendingPathComponent("corrupt").appendingPathComponent($0)
    }

    /// exiftool's reading of each EXIF block, by index, numbers as numbers (-n). It is given the blocks
    /// alone, as raw EXIF files: it reads nothing from most of the samples themselves, whose JPEG structure
    /// ends with their EXIF ("JPEG format error").
    static func exiftoolFields(_ blocks: [Data?]) throws -> [Int: [String: Any]] {
        let folder = try TemporaryFolder()
        var paths: [String] = []
        for (index, block) in blocks.enumerated() {
            guard let block else { continue }
            let file = folder.url.appendingPathComponent("\(index).exif")
            try block.dropFirst(ExifReader.header.count).write(to: file)
            paths.append(file.path)
        }
        let answer = try Subprocess.output(
            exiftool,
            [
                "-j", "-n", "-q", "-q", "-DateTimeOriginal", "-IFD0:ModifyDate", "-OffsetTimeOriginal",
                "-Composite:GPSLatitude", "-Composite:GPSLongitude", "-IFD0:Make", "-IFD0:Model",
                "-IFD0:Orientation",
            ] + paths)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [[String: Any]])
        var byIndex: [Int: [String: Any]] = [:]
        for record in records {
            let name = URL(fileURLWithPath: record["SourceFile"] as? String ?? "").deletingPathExtension()
            if let index = Int(name.lastPathComponent) { byIndex[index] = record }
        }
        return byIndex
    }

    /// photomap's and exiftool's reading of each file's EXIF block.
    static func read(_ files: [URL]) throws -> [(name: String, ours: ExifFields, theirs: [String: Any])] {
        let blocks = try files.map { JPEGSegments.exifBlock(in: try Data(contentsOf: $0)) }
        let reference = try exiftoolFields(blocks)
        return files.indices.map { index in
            (
                files[index].lastPathComponent, blocks[index].map(ExifReader.read) ?? ExifFields(),
                reference[index] ?? [:]
            )
        }
    }

    /// exiftool's fields in photomap's terms: position, date taken (DateTimeOriginal, else DateTime), offset,
    /// make, model and orientation.
    static func expected(_ theirs: [String: Any]) -> ExifFields {
        var fields = ExifFields()
        if let latitude = theirs["GPSLatitude"] as? Double, let longitude = theirs["GPSLongitude"] as? Double {
            fields.coordinate = Coordinate(latitude: latitude, longitude: longitude)
        }
        fields.dateTaken = (theirs["DateTimeOriginal"] ?? theirs["ModifyDate"]).flatMap {
            ExifReader.flickrDate("\($0)")
        }
        fields.utcOffsetSeconds = (theirs["OffsetTimeOriginal"] as? String).flatMap(ExifReader.offsetSeconds)
        fields.make = theirs["Make"].flatMap { ExifReader.cleaned("\($0)") }
        fields.model = theirs["Model"].flatMap { ExifReader.cleaned("\($0)") }
        if let orientation = theirs["Orientation"] as? Int, (1...8).contains(orientation) {
            fields.orientation = orientation
        }
        return fields
    }

    static func near(_ one: Coordinate?, _ other: Coordinate?) -> Bool {
        guard let one, let other else { return one == nil && other == nil }
        return abs(one.latitude - other.latitude) < 1e-6 && abs(one.longitude - other.longitude) < 1e-6
    }

    @Test("each sample's position, date, offset, camera and orientation are exiftool's")
    func samplesReadAsExiftoolReadsThem() throws {
        guard let files = try Self.samples() else { return }
        #expect(files.count == 58)
        var located: [String] = []
        var dated = 0
        for (name, ours, theirs) in try Self.read(files) {
            var expected = Self.expected(theirs)
            if name == Self.htcFile {
                // exiftool: 52° 0′ 50″ N, 11° 0′ 10″ E; the phone meant 52° 50′ 34.0118″ N, 11° 10′ 58.2836″ E.
                #expect(Self.near(expected.coordinate, Coordinate(latitude: 52.0138889, longitude: 11.0027778)))
                expected.coordinate = Coordinate(latitude: 52.8427811, longitude: 11.1828566)
            }
            #expect(Self.near(ours.coordinate, expected.coordinate), "\(name)")
            #expect(ours.dateTaken == expected.dateTaken, "\(name)")
            #expect(ours.utcOffsetSeconds == expected.utcOffsetSeconds, "\(name)")
            #expect(ours.make == expected.make && ours.model == expected.model, "\(name)")
            #expect(ours.orientation == expected.orientation, "\(name)")
            if ours.coordinate != nil { located.append(name) }
            if ours.dateTaken != nil { dated += 1 }
        }
        // Five with a position (an HTC ADR6400L, a RAPH800, the HTC One M8, an iPhone 4S, a Nikon D2H); one
        // without a date.
        #expect(
            located.sorted() == [
                "2011-05-07-13-02-49-sep-2011-05-07-13-02-49a.jpg", "2012-12-19-21-38-40-sep-temple_square1.jpg",
                Self.htcFile, "has-lens-info.jpg", "sample1.jpg",
            ])
        #expect(dated == 57)
    }

    @Test("the broken ones are read without harm: what photomap reads from them is what exiftool reads")
    func brokenSamples() throws {
        guard try Self.samples() != nil else { return }
        for (name, ours, theirs) in try Self.read(Self.broken) {
            let expected = Self.expected(theirs)
            // It may read less (of two DateTime entries, libexif keeps the first, a broken one), never other.
            #expect(ours.coordinate == nil || Self.near(ours.coordinate, expected.coordinate), "\(name)")
            #expect(ours.dateTaken == nil || ours.dateTaken == expected.dateTaken, "\(name)")
            #expect(ours.make == nil || ours.make == expected.make, "\(name)")
            #expect(ours.model == nil || ours.model == expected.model, "\(name)")
        }
    }
}
