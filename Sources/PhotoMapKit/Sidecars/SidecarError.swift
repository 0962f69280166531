// SPDX-License-Identifier: Apache-2.0
/// Why a sidecar was left as it was. The catalog's change is made all the same: a sidecar is a copy.
public enum SidecarError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Larger than `SidecarFile.maximumBytes`: not read, not written.
    case tooLarge(path: String)
    /// Not well-formed XML, at this line.
    case malformed(path: String, line: Int, message: String)
    /// It declares a document type, as XML bombs and external entities need (XMP never does).
    case doctypeRefused(path: String)
    /// Well-formed XML, but no XMP packet (no `rdf:RDF`).
    case notXMP(path: String)
    /// The system refused to read it.
    case unreadable(path: String, reason: String)
    /// The system refused to write it (or its folder).
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .tooLarge(let path): "\(path): larger than 1 MB, left as it is"
        case let .malformed(path, line, message):
            "\(path): not well-formed XML (line \(line): \(message)), left as it is"
        case .doctypeRefused(let path): "\(path): declares a document type (entities refused), left as it is"
        case .notXMP(let path): "\(path): holds no XMP (rdf:RDF), left as it is"
        case let .unreadable(path, reason): "\(path): cannot be read (\(reason))"
        case let .unwritable(path, reason): "\(path): cannot be written (\(reason))"
        }
    }
}
