/// Why a location could not be set by hand.
public enum CorrectionError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Ids the catalog holds no photo of.
    case unknownPhotos([String])
    /// A place no imported photo is in.
    case unknownPlace(String)
    /// `--like` names a photo that has no location to give.
    case modelWithoutLocation(String)

    public var description: String {
        switch self {
        case .unknownPhotos(let ids):
            "no imported photo has the id\(ids.count == 1 ? "" : "s") \(ids.joined(separator: ", "))"
        case .unknownPlace(let id): "no imported photo is in the place \(id)"
        case .modelWithoutLocation(let id): "the photo \(id) has no location to give"
        }
    }
}
