// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel

/// What a `POST /api/photos/locations` body asks for, checked: the photos' ids (each an imported
/// photo's, 1 to `LocationEditing.maximumPhotos` of them) and one target.
struct LocationEdit: Equatable {
    /// Why a body was refused: its status (400, 415) and the message the answer gives.
    struct Refusal: Error {
        let status: Int
        let message: String
    }

    let photos: [String]
    let target: LocationEditing.Target

    /// A body as JSON says it: an edit's fields, or an undo's.
    fileprivate struct Body: Decodable {
        let photos: [String]?
        let latitude, longitude: Double?
        let like: String?
        let clear: Bool?
        let undo: String?
    }

    /// The edit `json` asks for; a `Refusal` saying what is wrong with it (an undo is one too).
    init(json: Data, contentType: String?) throws(Refusal) {
        switch try LocationRequest(json: json, contentType: contentType) {
        case let .edit(edit): self = edit
        case .undo: throw Refusal(status: 400, message: "an undo is not an edit")
        }
    }

    /// The edit `body` asks for.
    fileprivate init(body: Body) throws(Refusal) {
        guard let photos = body.photos, (1...LocationEditing.maximumPhotos).contains(photos.count) else {
            throw Refusal(status: 400, message: "name 1 to \(LocationEditing.maximumPhotos) photos in \"photos\"")
        }
        if let bad = photos.first(where: { !LocalPhotoID.isValid($0) }) {
            throw Refusal(
                status: 400,
                message: "not an imported photo's id: \(bad.prefix(64)) ('\(LocalPhotoID.prefix)' and hex digits)")
        }
        self.photos = photos
        let given = [body.latitude != nil || body.longitude != nil, body.like != nil, body.clear != nil]
        guard given.filter({ $0 }).count == 1 else {
            throw Refusal(status: 400, message: "give one of \"latitude\" and \"longitude\", \"like\", or \"clear\"")
        }
        if let like = body.like {
            guard LocalPhotoID.isValid(like) else {
                throw Refusal(status: 400, message: "\"like\" must be an imported photo's id")
            }
            target = .like(like)
        } else if let clear = body.clear {
            guard clear else { throw Refusal(status: 400, message: "\"clear\" can only be true") }
            target = .clear
        } else if let coordinate = Coordinate(latitude: body.latitude, longitude: body.longitude) {
            target = .at(coordinate)
        } else {
            throw Refusal(
                status: 400,
                message: "\"latitude\" must be a number from -90 to 90 and \"longitude\" from -180 to 180, both given")
        }
    }
}

/// What a `POST /api/photos/locations` body asks for: an edit, or the undo of one the server kept.
enum LocationRequest: Equatable {
    /// Photos put somewhere, or their location removed.
    case edit(LocationEdit)
    /// The edit of this id taken back: `{"undo": EDIT}`, alone.
    case undo(String)

    /// What `json` asks for; a `LocationEdit.Refusal` saying what is wrong with it.
    init(json: Data, contentType: String?) throws(LocationEdit.Refusal) {
        let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/json" else {
            throw LocationEdit.Refusal(status: 415, message: "send the edit as JSON (Content-Type: application/json)")
        }
        guard let body = try? JSONDecoder().decode(LocationEdit.Body.self, from: json) else {
            throw LocationEdit.Refusal(
                status: 400,
                message: "the body must be JSON: {\"photos\": [ID…]} with \"latitude\" and \"longitude\", "
                    + "\"like\": ID, or \"clear\": true; or {\"undo\": EDIT}")
        }
        guard let undo = body.undo else {
            self = .edit(try LocationEdit(body: body))
            return
        }
        let alone =
            body.photos == nil && body.latitude == nil && body.longitude == nil && body.like == nil && body.clear == nil
        guard alone else {
            throw LocationEdit.Refusal(status: 400, message: "\"undo\" comes alone: {\"undo\": EDIT}")
        }
        guard KeptEdit.isValid(undo) else {
            throw LocationEdit.Refusal(
                status: 400, message: "\"undo\" must be an edit's id as an answer gave it (32 hex digits)")
        }
        self = .undo(undo)
    }
}
