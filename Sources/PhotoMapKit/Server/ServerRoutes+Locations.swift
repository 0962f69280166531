import Foundation

/// `POST /api/photos/locations`: the owner sets, moves or removes imported photos' locations from the
/// pages, as `photomap locate` does (`LocationEditing`, the same steps). The body is JSON:
/// `{"photos": [ID…], "latitude": …, "longitude": …}`, `{"photos": […], "like": ID}` or
/// `{"photos": […], "clear": true}`, naming 1 to `LocationEditing.maximumPhotos` photos. It passes
/// `StateChangePolicy` (its origin, the `X-CSRF-Token` header, at most 64 KB), then must come from the
/// signed-in owner (401 signed out, 403 anyone else). The answer is the photos as they now are; an
/// unknown id or a model without a location is 404 or 422, and nothing changes.
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
            let edit: LocationEdit
            switch Result(catching: { () throws(LocationEdit.Refusal) in
                try LocationEdit(json: request.body, contentType: request.headers["content-type"])
            }) {
            case let .success(asked): edit = asked
            case let .failure(refusal): return apiError(refusal.status, refusal.message)
            }
            do {
                let outcome = try editing.apply(edit.photos, to: edit.target)
                services.log(
                    "\(session.user.name.text) set the location of \(Quantity.groupedWords(outcome.changed, "photo", "photos"))"
                )
                for problem in outcome.sidecars?.problems ?? [] { services.log("sidecar \(problem)") }
                return locationsAnswer(outcome)
            } catch let error as CorrectionError {
                switch error {
                case .unknownPhotos, .unknownPlace: return apiError(404, error.description)
                case .modelWithoutLocation: return apiError(422, error.description)
                }
            }
        }
    }

    /// The photos as they now are: `{"photos": [{id, title, latitude, longitude, locationSource,
    /// locationNote, placeID}], "before": [{id, latitude, longitude, locationSource}], "changed": N,
    /// "sidecarsWritten": N|null}`; "before" is each photo as it was, exactly, for the page's undo.
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
            photos: photos, before: before, changed: outcome.changed, sidecarsWritten: outcome.sidecars?.written)
        return ServerResponse(
            status: 200,
            headers: Self.commonHeaders + [
                ("Content-Type", "application/json"), ("Cache-Control", "private, no-store"),
            ],
            body: .bytes((try? JSONOutput.data(answer)) ?? Data()))
    }
}

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

    private struct Body: Decodable {
        let photos: [String]
        let latitude, longitude: Double?
        let like: String?
        let clear: Bool?
    }

    /// The edit `json` asks for; a `Refusal` saying what is wrong with it.
    init(json: Data, contentType: String?) throws(Refusal) {
        let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/json" else {
            throw Refusal(status: 415, message: "send the edit as JSON (Content-Type: application/json)")
        }
        guard let body = try? JSONDecoder().decode(Body.self, from: json) else {
            throw Refusal(
                status: 400,
                message: "the body must be JSON: {\"photos\": [ID…]} with \"latitude\" and \"longitude\", "
                    + "\"like\": ID, or \"clear\": true")
        }
        guard (1...LocationEditing.maximumPhotos).contains(body.photos.count) else {
            throw Refusal(status: 400, message: "name 1 to \(LocationEditing.maximumPhotos) photos in \"photos\"")
        }
        if let bad = body.photos.first(where: { !LocalPhotoID.isValid($0) }) {
            throw Refusal(
                status: 400,
                message: "not an imported photo's id: \(bad.prefix(64)) ('\(LocalPhotoID.prefix)' and hex digits)")
        }
        photos = body.photos
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
