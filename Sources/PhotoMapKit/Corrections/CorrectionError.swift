// SPDX-License-Identifier: Apache-2.0
/// Why a location could not be set by hand.
public enum CorrectionError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Ids the catalog holds no photo of.
    case unknownPhotos([String])
    /// A place no imported photo is in.
    case unknownPlace(String)
    /// `--like` names a photo that has no location to give.
    case modelWithoutLocation(String)
    /// An undo of an edit the server does not keep: never made by this owner, undone already, more than
    /// `LocationEditing.undoable` edits ago, or made before `serve` started again.
    case unknownEdit(String)
    /// An undo of an edit whose photos changed since (a later edit, an import): those photos' ids.
    case changedSince([String])

    public var description: String {
        switch self {
        case .unknownPhotos(let ids):
            "no imported photo has the id\(ids.count == 1 ? "" : "s") \(ids.joined(separator: ", "))"
        case .unknownPlace(let id): "no imported photo is in the place \(id)"
        case .modelWithoutLocation(let id): "the photo \(id) has no location to give"
        case .unknownEdit(let id):
            "the edit \(id) cannot be undone here: it is not among the last \(LocationEditing.undoable) edits "
                + "this server kept (it may have been undone already, or made before serve started again)"
        case .changedSince(let ids):
            "the photo\(ids.count == 1 ? "" : "s") \(ids.joined(separator: ", ")) changed since that edit: "
                + "undo the later change first"
        }
    }
}
