// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport

/// `POST /api/photos/locations`: the owner sets, moves or removes imported photos' locations from the
/// pages, as `photomap locate` does (`LocationEditing`, the same steps). The body is JSON:
/// `{"photos": [ID…], "latitude": …, "longitude": …}`, `{"photos": […], "like": ID}` or
/// `{"photos": […], "clear": true}`, naming 1 to `LocationEditing.maximumPhotos` photos, or `{"undo": EDIT}`
/// taking back an edit the answer of which named EDIT (as the server kept it: sources included). It passes
/// `StateChangePolicy` (its origin, the `X-CSRF-Token` header, at most 64 KB), then must come from the
/// signed-in owner (401 signed out, 403 anyone else). The answer is the photos as they now are; an
/// unknown id or edit, or a model without a location, is 404 or 422; a photo changed since the edit undone
/// is 409; and nothing changes.
extension ServerRoutes {
    /// The route's path.
    static let locationsPath = "/api/photos/locations"

    /// The edit `request` asks for, made once it has passed the policy and its sender is the owner.
    func changeLocations(_ request: ServerRequest) -> HTTPServer.Reply {
        guard let editing = services.locationEditing, let signIn = services.signIn else {
            return .now(apiError(404, "locations are set here only when serving imported photos (--source local)"))
        }
        let policy = StateChangePolicy { [hosts] in hosts.contains($0) }
        if case let .refused(status, reason) = policy.check(request, form: nil, expectedToken: csrfToken(request)) {
            services.log("refused a \(request.path) request from \(clientAddress(request)): \(reason)")
            return .now(apiError(status, reason))
        }
        return later(failing: "The locations could not be set", asJSON: true) { [self] in
            guard let token = Cookies.token(Cookies.session, in: request), let session = try signIn.session(token)
            else {
                return apiError(401, "sign in as the owner to set locations")
            }
            guard session.user.role == .owner else {
                services.log("refused a location edit by \(session.user.name.text): not the owner")
                return apiError(403, "only the owner sets locations")
            }
            let asked: LocationRequest
            switch Result(catching: { () throws(LocationEdit.Refusal) in
                try LocationRequest(json: request.body, contentType: request.headers["content-type"])
            }) {
            case let .success(request): asked = request
            case let .failure(refusal): return apiError(refusal.status, refusal.message)
            }
            let owner = session.user.name.text
            do {
                let outcome: LocationEditing.Outcome
                switch asked {
                case let .edit(edit): outcome = try editing.apply(edit.photos, to: edit.target, by: owner)
                case let .undo(id): outcome = try editing.undo(id, by: owner)
                }
                let changed = Quantity.groupedWords(outcome.changed, "photo", "photos")
                if case .undo = asked {
                    services.log("\(owner) put back the location of \(changed)")
                } else {
                    services.log("\(owner) set the location of \(changed)")
                }
                for problem in outcome.sidecars?.problems ?? [] { services.log("sidecar \(problem)") }
                return locationsAnswer(outcome)
            } catch let error as CorrectionError {
                switch error {
                case .unknownPhotos, .unknownPlace, .unknownEdit: return apiError(404, error.description)
                case .modelWithoutLocation: return apiError(422, error.description)
                case .changedSince: return apiError(409, error.description)
                }
            }
        }
    }

    /// The photos as they now are: `{"photos": [{id, title, latitude, longitude, locationSource,
    /// locationNote, placeID}], "before": [{id, latitude, longitude, locationSource}], "changed": N,
    /// "sidecarsWritten": N|null, "edit": EDIT|null}`; "before" is each photo as it was, and "edit" what
    /// `{"undo": EDIT}` names to put them back so.
    private func locationsAnswer(_ outcome: LocationEditing.Outcome) -> ServerResponse {
        struct Located: Encodable {
            let id, title, placeID: String
            let latitude, longitude: Double?
            let locationSource, locationNote: String?

            enum CodingKeys: String, CodingKey {
                case id, title, placeID, latitude, longitude, locationSource, locationNote
            }

            // Null, not left out: a location removed is said as one.
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(title, forKey: .title)
                try container.encode(placeID, forKey: .placeID)
                try container.encode(latitude, forKey: .latitude)
                try container.encode(longitude, forKey: .longitude)
                try container.encode(locationSource, forKey: .locationSource)
                try container.encode(locationNote, forKey: .locationNote)
            }
        }
        struct Former: Encodable {
            let id: String
            let latitude, longitude: Double?
            let locationSource: String?

            enum CodingKeys: String, CodingKey { case id, latitude, longitude, locationSource }

            // Null, not left out: a photo that had no location is undone by removing it.
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(latitude, forKey: .latitude)
                try container.encode(longitude, forKey: .longitude)
                try container.encode(locationSource, forKey: .locationSource)
            }
        }
        struct Answer: Encodable {
            let photos: [Located]
            let before: [Former]
            let changed: Int
            let sidecarsWritten: Int?
            let edit: String?

            enum CodingKeys: String, CodingKey { case photos, before, changed, sidecarsWritten, edit }

            // Null, not left out: the page tells an edit it cannot undo by it.
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(photos, forKey: .photos)
                try container.encode(before, forKey: .before)
                try container.encode(changed, forKey: .changed)
                try container.encode(sidecarsWritten, forKey: .sidecarsWritten)
                try container.encode(edit, forKey: .edit)
            }
        }
        let photos = services.adapter.annotated(outcome.photos).map { entry in
            Located(
                id: entry.record.id, title: entry.annotation.title, placeID: entry.record.placeID,
                latitude: entry.record.coordinate?.latitude,
                longitude: entry.record.coordinate?.longitude, locationSource: entry.record.locationSource?.rawValue,
                locationNote: entry.annotation.locationNote)
        }
        let before = outcome.before.map {
            Former(
                id: $0.id, latitude: $0.coordinate?.latitude, longitude: $0.coordinate?.longitude,
                locationSource: $0.locationSource?.rawValue)
        }
        let answer = Answer(
            photos: photos, before: before, changed: outcome.changed, sidecarsWritten: outcome.sidecars?.written,
            edit: outcome.edit)
        return ServerResponse(
            status: 200,
            headers: Self.commonHeaders + [
                ("Content-Type", "application/json"), ("Cache-Control", "private, no-store"),
            ],
            body: .bytes((try? JSONOutput.data(answer)) ?? Data()))
    }
}
