// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import PhotoMapKit

/// XMP's exif GPS text: degrees, decimal minutes (or minutes and seconds), hemisphere.
@Suite("XMP coordinates")
struct XMPCoordinateTests {
    @Test("written as degrees and decimal minutes with the hemisphere")
    func written() {
        #expect(XMPCoordinate.text(46.3625, .latitude) == "46,21.75N")
        #expect(XMPCoordinate.text(-33.8568, .latitude) == "33,51.408S")
        #expect(XMPCoordinate.text(14.0936, .longitude) == "14,5.616E")
        #expect(XMPCoordinate.text(-0.5, .longitude) == "0,30W")
        #expect(XMPCoordinate.text(0, .latitude) == "0,0N")
        #expect(XMPCoordinate.text(90, .latitude) == "90,0N")
        #expect(XMPCoordinate.text(-90, .latitude) == "90,0S")
        #expect(XMPCoordinate.text(180, .longitude) == "180,0E")
        #expect(XMPCoordinate.text(-180, .longitude) == "180,0W")
        // Minutes that round up to 60 carry into the degrees.
        #expect(XMPCoordinate.text(45.99999999999, .latitude) == "46,0N")
        // A value that rounds to zero has no southern sign.
        #expect(XMPCoordinate.text(-0.000000001, .latitude) == "0,0N")
    }

    @Test("read back within 1e-6 degrees, over the whole range")
    func roundTrip() {
        for latitude in stride(from: -90.0, through: 90.0, by: 0.731_137) {
            let text = XMPCoordinate.text(latitude, .latitude)
            #expect(abs((XMPCoordinate.degrees(text, .latitude) ?? .nan) - latitude) < 1e-6, "\(text)")
        }
        for longitude in stride(from: -180.0, through: 180.0, by: 1.370_011) {
            let text = XMPCoordinate.text(longitude, .longitude)
            #expect(abs((XMPCoordinate.degrees(text, .longitude) ?? .nan) - longitude) < 1e-6, "\(text)")
        }
    }

    @Test("read in every form exiftool and others write, hostile text refused")
    func read() {
        #expect(XMPCoordinate.degrees("46,21.75N", .latitude) == 46.3625)
        #expect(XMPCoordinate.degrees("46,21,45N", .latitude).map { abs($0 - 46.3625) < 1e-12 } == true)
        #expect(XMPCoordinate.degrees("33,51.408S", .latitude).map { abs($0 + 33.8568) < 1e-9 } == true)
        #expect(XMPCoordinate.degrees("0,30w", .longitude) == -0.5)
        #expect(XMPCoordinate.degrees("-12.5", .longitude) == -12.5)
        #expect(XMPCoordinate.degrees(" 90,0N ", .latitude) == 90)
        #expect(XMPCoordinate.degrees("180,0W", .longitude) == -180)
        for bad in [
            "", "N", "90,0.1N", "180,1E", "46,60N", "46,21,60N", "46,21.75E", "14,5W", "-46,21N", "46,-21N",
            "46,,N", "1,2,3,4N", "nan", "inf", "1e3", "46,21.75X", "46;21N", "0x10",
        ] {
            #expect(XMPCoordinate.degrees(bad, .latitude) == nil, "\(bad)")
        }
        #expect(XMPCoordinate.degrees("14,5W", .latitude) == nil)
        #expect(XMPCoordinate.degrees("181", .longitude) == nil)
        #expect(XMPCoordinate.degrees("-90.000001", .latitude) == nil)
    }
}
