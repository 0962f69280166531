// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Carries one Flickr API call and returns the answer's JSON body.
/// The REST transport asks Flickr over HTTP; the fixture transport answers from the embedded catalog.
public protocol FlickrTransport: Sendable {
    /// The JSON body of the answer to `method` with `parameters` (api_key and format are the transport's job).
    func call(method: String, parameters: [String: String]) throws -> Data
}
