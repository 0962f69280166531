// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("Import: EXIF, the images made, places and the catalog")
struct ImportTests {
    /// A block with a position, a date and words, in either byte order.
    func block(latitude: Double, longitude: Double, bigEndian: Bool = false) -> ExifBlock {
        var exif = ExifBlock(bigEndian: bigEndian)
        exif.ifd0 = [
            exif.ascii(0x010E, "Piazza Grande"), exif.ascii(0x013B, "Ann Example"),
            exif.ascii(0x8298, "CC BY 4.0 Ann Example"),
        ]
        exif.exif = [exif.ascii(0x9003, "2024:05:01 17:48:17"), exif.ascii(0x9011, "+02:00")]
        exif.setPosition(latitude: latitude, longitude: longitude)
        return exif
    }

    @Test(
        "GPS in all four quadrants, both byte orders, with date, offset, title, artist and copyright",
        arguments: [(43.4633, 11.8796), (40.7128, -74.0060), (-33.8688, 151.2093), (-22.9068, -43.1729)])
    func quadrants(position: (Double, Double)) {
        for bigEndian in [false, true] {
            let fields = ExifReader.read(
                Data(
                    block(
                        latitude: position.0, longitude: position.1,
                        bigEndian: bigEndian
                    ).bytes))
            #expect(fields.problems.isEmpty)
            let coordinate = fields.coordinate
            #expect(abs((coordinate?.latitude ?? 0) - position.0) < 1e-5)
            #expect(abs((coordinate?.longitude ?? 0) - position.1) < 1e-5)
            #expect(fields.dateTaken == "2024-05-01 17:48:17")
            #expect(fields.utcOffsetSeconds == 7200)
            #expect(fields.title == "Piazza Grande")
            #expect(fields.artist == "Ann Example")
            #expect(fields.copyright == "CC BY 4.0 Ann Example")
        }
    }

    @Test("malformed fields are left out and named; the others are kept")
    func malformedFields() {
        var exif = block(latitude: 43.46, longitude: 11.88)
        // GPSLatitude as text that is not sure (43° 5′, or 43.5° with a decimal comma?), and as UNDEFINED bytes.
        exif.gps[1] = exif.ascii(2, "43,5")
        var fields = ExifReader.read(Data(exif.bytes))
        #expect(fields.coordinate == nil)
        #expect(
            fields.problems.contains { $0.contains("GPSLatitude is text (\"43,5\") that does not surely give degrees") }
        )
        exif.gps[1] = ExifBlock.Entry(tag: 2, type: 7, count: 3, value: [43, 27, 36])
        fields = ExifReader.read(Data(exif.bytes))
        #expect(fields.coordinate == nil)
        #expect(fields.problems.contains { $0.contains("GPSLatitude has the wrong type") })
        #expect(fields.title == "Piazza Grande")

        exif = block(latitude: 43.46, longitude: 11.88)
        exif.gps[1] = exif.rationals(2, [(43, 1), (27, 1)])
        fields = ExifReader.read(Data(exif.bytes))
        #expect(fields.coordinate == nil)
        #expect(fields.problems.contains { $0.contains("2 values where 3") })

        exif = block(latitude: 43.46, longitude: 11.88)
        exif.gps[3] = exif.rationals(4, [(11, 0), (52, 1), (0, 1)])
        fields = ExifReader.read(Data(exif.bytes))
        #expect(fields.coordinate == nil)
        #expect(fields.problems.contains { $0.contains("zero denominator") })

        exif = block(latitude: 43.46, longitude: 11.88)
        exif.gps[1] = exif.rationals(2, [(95, 1), (0, 1), (0, 1)])
        fields = ExifReader.read(Data(exif.bytes))
        #expect(fields.coordinate == nil)
        #expect(fields.problems.contains { $0.contains("out of range") })

        // (0, 0) without references: a device without a fix, no location and nothing wrong.
        exif = block(latitude: 0, longitude: 0)
        exif.gps = [exif.degrees(2, 0), exif.degrees(4, 0)]
        fields = ExifReader.read(Data(exif.bytes))
        #expect(fields.coordinate == nil)
        #expect(fields.problems.isEmpty)

        // Values whose offsets point past the block, an empty title, a bad date and offset, a thumbnail declared
        // larger than the block.
        exif = block(latitude: 43.46, longitude: 11.88)
        exif.gps[1].offset = 60_000
        exif.ifd0[0] = exif.ascii(0x010E, "")
        exif.exif = [exif.ascii(0x9003, "2024:13:45 99:00:00"), exif.ascii(0x9011, "two hours")]
        exif.ifd1 = [exif.long(0x0201, 8), exif.long(0x0202, 5_000_000)]
        fields = ExifReader.read(Data(exif.bytes))
        #expect(fields.coordinate == nil)
        #expect(fields.title == nil)
        #expect(fields.dateTaken == nil)
        #expect(fields.artist == "Ann Example")

        // Not EXIF at all, and a block cut short.
        #expect(ExifReader.read(Data("not exif".utf8)).problems == ["EXIF block without its header"])
        let cut = ExifReader.read(Data(block(latitude: 1, longitude: 1).bytes.prefix(30)))
        #expect(cut.coordinate == nil)
    }

    /// The GPS block of the HMD Nokia 8.3 5G's photo in ianare/exif-samples (its dump lists the values; the
    /// file itself cannot be fetched here), with the degrees as SRATIONAL, as the issue reports the phone
    /// writes them.
    static func nokiaBlock(bigEndian: Bool) -> ExifBlock {
        var exif = ExifBlock(bigEndian: bigEndian)
        exif.ifd0 = [exif.short(0x0112, 1), exif.ascii(0x0132, "2022:01:12 07:30:14")]
        exif.gps = [
            exif.ascii(1, "N"), exif.srationals(2, [(40, 1), (39, 1), (233883, 5000)]),
            exif.ascii(3, "W"), exif.srationals(4, [(3, 1), (45, 1), (12_366_459, 250_000)]),
        ]
        return exif
    }

    /// Blocks written with the types real devices use where the specification says RATIONAL or SHORT, each
    /// with the position and orientation exiftool reads from it.
    static func unusualTypes() -> [(name: String, block: ExifBlock, latitude: Double, longitude: Double)] {
        var blocks = [
            ("Nokia 8.3 SRATIONAL, little-endian", nokiaBlock(bigEndian: false), 40.662993500, -3.763740510),
            ("Nokia 8.3 SRATIONAL, big-endian", nokiaBlock(bigEndian: true), 40.662993500, -3.763740510),
        ]
        var whole = ExifBlock()
        // Whole degrees, minutes and seconds as SHORTs and LONGs; four values where three are needed.
        whole.ifd0 = [whole.longs(0x0112, [6])]
        whole.gps = [
            whole.ascii(1, "S"), whole.shorts(2, [33, 52, 8]),
            whole.ascii(3, "E"), whole.longs(4, [151, 12, 33, 0]),
        ]
        blocks.append(("SHORT and LONG, four values", whole, -(33 + 52 / 60 + 8 / 3600), 151 + 12 / 60 + 33 / 3600))
        var extra = ExifBlock()
        extra.gps = [
            extra.ascii(1, "N"), extra.rationals(2, [(43, 1), (27, 1), (48_000, 1000), (7, 1)]),
            extra.ascii(3, "E"), extra.rationals(4, [(11, 1), (52, 1), (46_560, 1000)]),
        ]
        blocks.append(("RATIONAL with a fourth value", extra, 43 + 27 / 60 + 48 / 3600, 11 + 52 / 60 + 46.56 / 3600))
        return blocks.map { (name: $0.0, block: $0.1, latitude: $0.2, longitude: $0.3) }
    }

    @Test("GPS degrees as SRATIONAL (the Nokia 8.3), SHORT or LONG, with extra values: read as exiftool reads them")
    func unusualTypesAreRead() throws {
        for sample in Self.unusualTypes() {
            let fields = ExifReader.read(Data(sample.block.bytes))
            #expect(fields.problems.isEmpty, "\(sample.name)")
            #expect(abs((fields.coordinate?.latitude ?? 0) - sample.latitude) < 1e-7, "\(sample.name)")
            #expect(abs((fields.coordinate?.longitude ?? 0) - sample.longitude) < 1e-7, "\(sample.name)")
        }
        #expect(ExifReader.read(Data(Self.unusualTypes()[2].block.bytes)).orientation == 6)
        // A negative part beside a reference means nothing sure: no location, and the reason.
        var negative = Self.nokiaBlock(bigEndian: false)
        negative.gps[1] = negative.srationals(2, [(-40, 1), (39, 1), (0, 1)])
        let fields = ExifReader.read(Data(negative.bytes))
        #expect(fields.coordinate == nil)
        #expect(fields.problems == ["GPSLatitude has a negative value: no location"])
    }

    @Test("exiftool reads the same positions from JPEGs with those types")
    func unusualTypesAsExiftoolReadsThem() throws {
        let exiftool = "/usr/bin/exiftool"
        guard FileManager.default.isExecutableFile(atPath: exiftool) else {
            Issue.record("exiftool is not installed (Debian libimage-exiftool-perl): scripts/install-deps installs it")
            return
        }
        let folder = try TemporaryFolder()
        let samples = Self.unusualTypes()
        for (index, sample) in samples.enumerated() {
            try ExifJPEG.make(ExifJPEG.quarters(width: 16, height: 16), exif: sample.block)
                .write(to: folder.url.appendingPathComponent("\(index).jpg"))
        }
        for (index, sample) in samples.enumerated() {
            let file = folder.url.appendingPathComponent("\(index).jpg")
            let answer = try Subprocess.output(
                exiftool, ["-n", "-s3", "-Composite:GPSLatitude", "-Composite:GPSLongitude", file.path])
            let values = answer.split(separator: "\n").compactMap { Double($0) }
            try #require(values.count == 2, "\(sample.name): exiftool said \(answer)")
            let fields = ExifReader.read(try #require(JPEGSegments.exifBlock(in: Data(contentsOf: file))))
            #expect(abs((fields.coordinate?.latitude ?? 0) - values[0]) < 1e-7, "\(sample.name)")
            #expect(abs((fields.coordinate?.longitude ?? 0) - values[1]) < 1e-7, "\(sample.name)")
        }
    }

    @Test("GPS degrees as text: the HTC One M8's decimal commas, else its numbers in order as exiftool reads them")
    func textDegrees() throws {
        let texts: [(String, [Double]?)] = [
            ("52,00000,50,00000,34,01180", [52, 50, 34.0118]),
            ("40 39 46.7766", [40, 39, 46.7766]),
            ("40,39,46.7766", [40, 39, 46.7766]),
            ("40.6629935", [40.6629935, 0, 0]), ("43 27", [43, 27, 0]),
            // A comma between two numbers: minutes, or a decimal comma?
            ("43,5", nil), ("43 27,5", nil),
            // Six numbers that are not the HTC's five decimals each, or four: which are what is not sure.
            ("52,5,50,0,34,0", nil), ("40,39,46,7766", nil),
            // Anything but digits, points, commas and spaces.
            ("N 40 39", nil), ("-40", nil), ("4e1", nil), (".", nil), ("", nil),
        ]
        for (text, parts) in texts { #expect(ExifReader.degreeParts(text: text) == parts, "\(text)") }
        var exif = ExifBlock()
        exif.gps = [
            exif.ascii(1, "N"), exif.ascii(2, "52,00000,50,00000,34,01180"),
            exif.ascii(3, "E"), exif.ascii(4, "11,00000,10,00000,58,28360"),
        ]
        let fields = ExifReader.read(Data(exif.bytes))
        #expect(fields.problems.isEmpty)
        #expect(fields.coordinate == Coordinate(latitude: 52.8427811, longitude: 11.1828566))
        exif.gps[1] = exif.ascii(2, "north")
        let refused = ExifReader.read(Data(exif.bytes))
        #expect(refused.coordinate == nil)
        #expect(refused.problems == ["GPSLatitude is text (\"north\") that does not surely give degrees: no location"])
    }

    @Test(
        "each of the eight orientations turns the square and the medium image as a viewer would",
        arguments: 1...8)
    func orientations(orientation: Int) throws {
        var exif = ExifBlock()
        exif.ifd0 = [exif.short(0x0112, UInt16(orientation))]
        let data = try ExifJPEG.make(ExifJPEG.quarters(width: 160, height: 80), exif: exif)
        let read = try PhotoFileReader.read(data, as: .jpeg)
        #expect(read.fields.orientation == orientation)
        let (red, green, blue, white): ([UInt8], [UInt8], [UInt8], [UInt8]) =
            ([255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255])
        // Top left, top right, bottom left, bottom right as shown.
        let expected: [[[UInt8]]] = [
            [red, green, blue, white], [green, red, white, blue], [white, blue, green, red],
            [blue, white, red, green], [red, blue, green, white], [blue, red, white, green],
            [white, green, blue, red], [green, white, red, blue],
        ]
        let square = try JPEGCodec.decode(read.square)
        #expect(square.width == 75 && square.height == 75)
        let medium = try JPEGCodec.decode(read.medium)
        #expect(
            orientation >= 5 ? (medium.width, medium.height) == (80, 160) : (medium.width, medium.height) == (160, 80))
        for image in [square, medium] {
            let corners = [(4, 4), (image.width - 5, 4), (4, image.height - 5), (image.width - 5, image.height - 5)]
            for (corner, want) in zip(corners, expected[orientation - 1]) {
                let offset = (corner.1 * image.width + corner.0) * 4
                let got = Array(image.pixels[offset..<(offset + 3)])
                #expect(
                    zip(got, want).allSatisfy { abs(Int($0) - Int($1)) < 70 },
                    "orientation \(orientation): \(got) where \(want) was expected")
            }
        }
    }

    @Test("a large JPEG is decoded at a reduced scale, its images the sizes Flickr's are")
    func scaledDecode() throws {
        let data = try ExifJPEG.make(ExifJPEG.quarters(width: 2400, height: 1600), exif: nil, quality: 70)
        let scaled = try JPEGCodec.decodeScaled(
            data, minimumLongSide: 500, minimumShortSide: 75,
            maximumPixels: 100_000_000)
        #expect((scaled.fullWidth, scaled.fullHeight) == (2400, 1600))
        #expect((scaled.plane.width, scaled.plane.height) == (600, 400))
        let read = try PhotoFileReader.read(data, as: .jpeg)
        #expect(read.mediumSize.width == 500 && read.mediumSize.height == 333)
    }

    @Test("decompression bombs, truncated and foreign files are refused before anything large is allocated")
    func refused() throws {
        let bomb = try ExifJPEG.declaring(width: 20_000, height: 20_000)
        #expect(throws: ImageError.undecodable("declared size 20000x20000 is over the limit of 100 megapixels")) {
            try PhotoFileReader.read(bomb, as: .jpeg)
        }
        let whole = try ExifJPEG.make(ExifJPEG.quarters(width: 160, height: 80), exif: nil)
        #expect(throws: ImageError.self) { try PhotoFileReader.read(whole.prefix(whole.count / 2), as: .jpeg) }
        #expect(PhotoFileReader.kind(of: Data("hello".utf8)) == nil)
        // Found by the local-photos fuzzer: an overlay whose canvas made libheif ask for 1.4 GB.
        let overlay = try Data(
            contentsOf: LoopbackServer.repositoryRoot
                .appendingPathComponent("Fuzz/Corpus/local-photos/overlay-canvas-1.4gb.heic"))
        #expect(throws: ImageError.undecodable("HEIF overlay images are not imported")) {
            try PhotoFileReader.read(overlay, as: .heif)
        }
        #expect(throws: ImageError.self) {
            try PhotoFileReader.read(
                Data([0, 0, 0, 24] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 40)),
                as: .heif)
        }
    }

    @Test("a located photo joins the nearest city it lies within; others their division or their square")
    func places() throws {
        let places = try LocalPlaces(
            gazetteer: LoopbackServer.repositoryRoot.appendingPathComponent("Fixtures/gazetteer"))
        let arezzo = places.place(for: Coordinate(latitude: 43.4633, longitude: 11.8796)!)
        #expect(arezzo.id == "3182884")
        #expect(arezzo.fullName == "Arezzo, Tuscany, Italy")
        // Between towns in the Tuscan hills (its region), and in the middle of the Pacific.
        #expect(places.place(for: Coordinate(latitude: 43.2, longitude: 11.3)!).id == "region_IT_16")
        let ocean = places.place(for: Coordinate(latitude: -30.5, longitude: -140.2)!)
        #expect(ocean.id == "area_S31_W141")
        #expect(ocean.fullName == "31°S 141°W")
    }
}
