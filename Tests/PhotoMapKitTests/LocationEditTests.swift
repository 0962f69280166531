// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import Testing

@testable import PhotoMapKit
@testable import PhotoMapServer

/// What a `POST /api/photos/locations` body may ask for: its bounds at their edges (the end-to-end tests
/// send the rest over HTTP).
@Suite("Location edit bodies")
struct LocationEditTests {
    static let id = "local-" + String(repeating: "a", count: 24)

    func edit(_ json: String, type: String? = "application/json") throws(LocationEdit.Refusal) -> LocationEdit {
        try LocationEdit(json: Data(json.utf8), contentType: type)
    }

    func refusal(_ json: String, type: String? = "application/json") -> Int? {
        do {
            _ = try edit(json, type: type)
            return nil
        } catch {
            return error.status
        }
    }

    @Test("the Earth's edges are places; a hair past them, or not a number, is refused")
    func coordinates() throws {
        for (lat, lon) in [(90.0, 180.0), (-90.0, -180.0), (0.0, 0.0)] {
            let asked = try edit(#"{"photos": ["\#(Self.id)"], "latitude": \#(lat), "longitude": \#(lon)}"#)
            #expect(asked.target == .at(try #require(Coordinate(latitude: lat, longitude: lon))))
        }
        for body in [
            #""latitude": 90.0000001, "longitude": 0"#, #""latitude": 0, "longitude": -180.0000001"#,
            #""latitude": NaN, "longitude": 0"#, #""latitude": 1e400, "longitude": 0"#,
            #""latitude": null, "longitude": 1"#,
        ] {
            #expect(refusal(#"{"photos": ["\#(Self.id)"], \#(body)}"#) == 400, "\(body)")
        }
    }

    @Test("1 to 500 photos, each an imported photo's id; one target; JSON only")
    func bounds() throws {
        let ids = (0..<LocationEditing.maximumPhotos).map { "\"local-\(String(format: "%024x", $0))\"" }
        let most = try edit(#"{"photos": [\#(ids.joined(separator: ","))], "clear": true}"#)
        #expect(most.photos.count == 500 && most.target == .clear)
        let over = ids + ["\"local-\(String(repeating: "f", count: 24))\""]
        #expect(refusal(#"{"photos": [\#(over.joined(separator: ","))], "clear": true}"#) == 400)
        #expect(try edit(#"{"photos": ["\#(Self.id)"], "like": "\#(Self.id)"}"#).target == .like(Self.id))
        #expect(
            try edit(#"{"photos": ["\#(Self.id)"], "clear": true}"#, type: "Application/JSON; charset=utf-8").target
                == .clear)
        #expect(refusal(#"{"photos": ["\#(Self.id.uppercased())"], "clear": true}"#) == 400)
        #expect(refusal(#"{"photos": ["\#(Self.id)"], "like": "../x"}"#) == 400)
        #expect(refusal(#"{"photos": ["\#(Self.id)"], "clear": false}"#) == 400)
        #expect(refusal(#"{"photos": ["\#(Self.id)"]}"#) == 400)
        #expect(refusal(#"{"photos": "\#(Self.id)", "clear": true}"#) == 400)
        #expect(refusal(#"{"photos": ["\#(Self.id)"], "clear": true}"#, type: "text/plain") == 415)
        #expect(refusal(#"{"photos": ["\#(Self.id)"], "clear": true}"#, type: nil) == 415)
    }

    @Test("an undo names an edit's id (32 hex digits) and comes alone")
    func undo() throws {
        let kept = String(repeating: "0f", count: 16)
        #expect(
            try LocationRequest(json: Data(#"{"undo": "\#(kept)"}"#.utf8), contentType: "application/json")
                == .undo(kept))
        let asked = try LocationRequest(
            json: Data(#"{"photos": ["\#(Self.id)"], "clear": true}"#.utf8), contentType: "application/json")
        #expect(asked == .edit(try edit(#"{"photos": ["\#(Self.id)"], "clear": true}"#)))
        for body in [
            #"{"undo": "\#(kept.uppercased())"}"#, #"{"undo": "\#(kept)0"}"#, #"{"undo": "../\#(kept.dropFirst(3))"}"#,
            #"{"undo": "\#(kept)", "photos": ["\#(Self.id)"]}"#, #"{"undo": "\#(kept)", "clear": true}"#,
            #"{"undo": 7}"#,
        ] {
            #expect(refusal(body) == 400, "\(body)")
        }
        #expect(refusal(#"{"undo": "\#(kept)"}"#) == 400, "an undo is not an edit")
        #expect(throws: LocationEdit.Refusal.self) {
            try LocationRequest(json: Data(#"{"undo": "\#(kept)"}"#.utf8), contentType: "text/plain")
        }
    }
}
