// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A `Decodable` file's failure told for a person: where in the JSON, and what was wrong there.
package enum DecodingErrorText {
    /// A decoding error told as a path into the JSON and what was wrong there.
    package static func describe(_ error: any Error) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        switch error as? DecodingError {
        case let .keyNotFound(key, context)?:
            let parent = path(context.codingPath)
            return "missing field \"\(key.stringValue)\"" + (parent.isEmpty ? "" : " in \(parent)")
        case let .typeMismatch(_, context)?, let .valueNotFound(_, context)?:
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case let .dataCorrupted(context)?:
            let location = path(context.codingPath)
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return (location.isEmpty ? "" : "\(location): ") + (underlying ?? context.debugDescription)
        case nil:
            return String(describing: error)
        @unknown default:
            return String(describing: error)
        }
    }
}
