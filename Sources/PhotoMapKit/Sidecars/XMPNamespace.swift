// SPDX-License-Identifier: Apache-2.0
/// The XMP namespaces a sidecar's location is written in.
enum XMPNamespace {
    /// The packet's wrapper, `x:xmpmeta`.
    static let meta = "adobe:ns:meta/"
    /// RDF, whose `rdf:Description` elements hold the properties.
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    /// XMP's exif namespace: `exif:GPSLatitude` and the rest.
    static let exif = "http://ns.adobe.com/exif/1.0/"
    /// photomap's own: where the location came from, and the GPS as photomap wrote it.
    static let photomap = "urn:photomap:xmp:1.0/"
}
