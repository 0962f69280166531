// SPDX-License-Identifier: Apache-2.0
import Foundation
import FoundationXML
import PhotoMapModel
import Testing

@testable import PhotoMapKit

/// Sidecars read and merged with libxml2: other tools' properties kept, hostile files refused.
@Suite("XMP sidecars")
struct XMPSidecarTests {
    /// A sidecar as darktable and digiKam leave one: a history, tags, a rating, in attributes and elements.
    static let others = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:darktable="http://darktable.sf.net/"
            xmlns:digiKam="http://www.digikam.org/ns/1.0/"
            xmlns:exif="http://ns.adobe.com/exif/1.0/"
            xmp:Rating="4"
            darktable:history_end="2"
            exif:GPSLatitude="10,0N">
           <darktable:history>
            <rdf:Seq>
             <rdf:li darktable:operation="exposure" darktable:enabled="1" darktable:params="0000c0bf"/>
             <rdf:li darktable:operation="colorin" darktable:enabled="1" darktable:params="gz48eJzjZhgFo4B+"/>
            </rdf:Seq>
           </darktable:history>
           <digiKam:TagsList>
            <rdf:Seq>
             <rdf:li>Places/Slovenia/Bled</rdf:li>
             <rdf:li>People/Ana &amp; Luka</rdf:li>
            </rdf:Seq>
           </digiKam:TagsList>
           <exif:GPSLongitude>20,0E</exif:GPSLongitude>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """

    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("photomap-xmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// The canonical XML (C14N) of every element `name` of the file at `path`.
    func canonical(_ name: String, at path: String) throws -> [String] {
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: path), options: [.nodePreserveAll])
        return try document.nodes(forXPath: "//*[name()='\(name)']").map {
            $0.canonicalXMLStringPreservingComments(true)
        }
    }

    @Test("a location is merged into another tool's sidecar: its history and tags kept, GPS replaced")
    func merged() throws {
        let path = try file("IMG_1.JPG.xmp", Self.others)
        let history = try canonical("darktable:history", at: path)
        let tags = try canonical("digiKam:TagsList", at: path)
        #expect(history.count == 1 && tags.count == 1)
        // Another tool's GPS: the sidecar's.
        #expect(
            try SidecarFile.location(at: path)
                == SidecarLocation(
                    coordinate: Coordinate(latitude: 10, longitude: 20), source: .sidecar))

        let bled = try #require(Coordinate(latitude: 46.3625, longitude: 14.0936))
        try SidecarFile.write(bled, source: .manual, at: path)
        #expect(try canonical("darktable:history", at: path) == history)
        #expect(try canonical("digiKam:TagsList", at: path) == tags)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("exif:GPSLatitude=\"46,21.75N\"") && text.contains("exif:GPSLongitude=\"14,5.616E\""))
        #expect(text.contains("exif:GPSMapDatum=\"WGS-84\"") && text.contains("exif:GPSVersionID=\"2.2.0.0\""))
        #expect(text.contains("xmp:Rating=\"4\"") && text.contains("<?xpacket end=\"w\"?>"))
        #expect(!text.contains("20,0E") && !text.contains("10,0N"))
        // Read back as photomap's own.
        #expect(try SidecarFile.location(at: path) == SidecarLocation(coordinate: bled, source: .manual))

        // Removed by hand: no GPS, the removal noted; the rest kept.
        try SidecarFile.write(nil, source: .manual, at: path)
        #expect(try SidecarFile.location(at: path) == SidecarLocation(coordinate: nil, source: .manual))
        #expect(try canonical("digiKam:TagsList", at: path) == tags)
        // Taken away by tracks: nothing said, the photo's own EXIF stands.
        try SidecarFile.write(nil, source: nil, at: path)
        #expect(try SidecarFile.location(at: path) == nil)
    }

    @Test("a new sidecar; another tool's change to photomap's GPS makes it the sidecar's")
    func created() throws {
        let path = folder.appendingPathComponent("deep/IMG_2.xmp").path
        try SidecarFile.write(Coordinate(latitude: -33.8568, longitude: 151.2153), source: .track, at: path)
        #expect(try SidecarFile.location(at: path)?.source == .track)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let changed = text.replacingOccurrences(
            of: "exif:GPSLatitude=\"33,51.408S\"", with: "exif:GPSLatitude=\"33,0S\"")
        #expect(changed != text)
        try Data(changed.utf8).write(to: URL(fileURLWithPath: path))
        let read = try #require(try SidecarFile.location(at: path))
        #expect(read.source == .sidecar && read.coordinate?.latitude == -33)
        #expect(try SidecarFile.location(at: folder.appendingPathComponent("none.xmp").path) == nil)
    }

    @Test("bombs, external entities, malformed, not XMP and over 1 MB are refused and left untouched")
    func refused() throws {
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="">&d;</rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let secret = try file("secret.txt", "46,0N")
        let external = """
            <?xml version="1.0"?>
            <!DOCTYPE x [<!ENTITY e SYSTEM "file://\(secret)"><!ENTITY n SYSTEM "http://127.0.0.1:9/x">]>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/"><exif:GPSLatitude>&e;</exif:GPSLatitude>
            <exif:GPSLongitude>&n;</exif:GPSLongitude></rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let undeclared = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">&e;</x:xmpmeta>"
        let cases: [(String, String, (String) -> SidecarError)] = [
            ("bomb.xmp", bomb, { .doctypeRefused(path: $0) }),
            ("external.xmp", external, { .doctypeRefused(path: $0) }),
            ("notxmp.xmp", "<a><b/></a>", { .notXMP(path: $0) }),
        ]
        let bled = Coordinate(latitude: 46.3625, longitude: 14.0936)
        for (name, text, expected) in cases {
            let path = try file(name, text)
            #expect(throws: expected(path)) { try SidecarFile.location(at: path) }
            #expect(throws: expected(path)) { try SidecarFile.write(bled, source: .manual, at: path) }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        }
        for text in ["<x:xmpmeta", undeclared, "", "\u{0}"] {
            let path = try file("malformed.xmp", text)
            #expect(throws: SidecarError.self) { try SidecarFile.write(bled, source: .manual, at: path) }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
            do {
                _ = try SidecarFile.location(at: path)
                Issue.record("\(text) was read")
            } catch .malformed {
            } catch {
                Issue.record("\(text): \(error)")
            }
        }
        let large = try file("large.xmp", Self.others + String(repeating: " ", count: SidecarFile.maximumBytes))
        #expect(throws: SidecarError.tooLarge(path: large)) { try SidecarFile.location(at: large) }
        #expect(throws: SidecarError.tooLarge(path: large)) { try SidecarFile.write(bled, source: .manual, at: large) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: large)).count > SidecarFile.maximumBytes)
    }

    @Test("named after the file, or in a folder mirroring the import folder's tree")
    func placement() {
        #expect(SidecarPlacement().path(for: "/p/2024/IMG_1.JPG") == "/p/2024/IMG_1.JPG.xmp")
        #expect(SidecarPlacement(naming: .base).path(for: "/p/2024/IMG_1.JPG") == "/p/2024/IMG_1.xmp")
        #expect(SidecarPlacement().candidates(for: "/p/IMG_1.JPG") == ["/p/IMG_1.JPG.xmp", "/p/IMG_1.xmp"])
        let mirrored = SidecarPlacement(folder: "/s", roots: ["/p", "/p/2024/deep"])
        #expect(mirrored.path(for: "/p/2024/IMG_1.JPG") == "/s/2024/IMG_1.JPG.xmp")
        #expect(mirrored.path(for: "/p/IMG_1.JPG") == "/s/IMG_1.JPG.xmp")
        #expect(mirrored.path(for: "/p/2024/deep/a/IMG_1.JPG") == "/s/a/IMG_1.JPG.xmp")
        #expect(mirrored.path(for: "/pictures/IMG_1.JPG") == nil)
        #expect(mirrored.path(for: "/other/IMG_1.JPG") == nil)
    }
}
