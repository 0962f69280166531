// SPDX-License-Identifier: Apache-2.0
import CXML2
import Foundation
import PhotoMapModel

/// An XMP packet as libxml2's tree: read without the network, a DTD or entity expansion (one that
/// declares a document type is refused), changed in place, so every property photomap does not write
/// (ratings, keywords, darktable's history, digiKam's tags) stays as it was. Not Sendable: one owner.
final class XMPDocument {
    private let document: xmlDocPtr

    /// The properties photomap writes (and removes before writing them again).
    private static let managed: [(namespace: String, name: String)] = [
        (XMPNamespace.exif, "GPSLatitude"), (XMPNamespace.exif, "GPSLongitude"), (XMPNamespace.exif, "GPSVersionID"),
        (XMPNamespace.exif, "GPSMapDatum"), (XMPNamespace.photomap, "LocationSource"),
        (XMPNamespace.photomap, "Coordinate"),
    ]

    /// The packet in `bytes` (read from `path`, which errors name).
    init(bytes: [UInt8], path: String) throws(SidecarError) {
        var doctype: Int32 = 0
        var error = photomap_xml_error()
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                photomap_xml_read_tree(characters.baseAddress, Int32(buffer.count), &doctype, &error)
            }
        }
        guard let parsed else {
            if doctype != 0 { throw .doctypeRefused(path: path) }
            let message = withUnsafeBytes(of: &error.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }.trimmingCharacters(in: .whitespacesAndNewlines)
            throw .malformed(
                path: path, line: max(Int(error.line), 1), message: message.isEmpty ? "cannot be parsed" : message)
        }
        // Checked before the tree is kept: a throwing initializer that set every property runs `deinit`.
        guard Self.first(named: "RDF", in: XMPNamespace.rdf, below: xmlDocGetRootElement(parsed)) != nil else {
            xmlFreeDoc(parsed)
            throw .notXMP(path: path)
        }
        document = parsed
    }

    /// A packet holding nothing yet: `x:xmpmeta/rdf:RDF/rdf:Description`.
    init() {
        document = xmlNewDoc(Self.text("1.0"))
        let meta = xmlNewNode(nil, Self.text("xmpmeta"))
        xmlSetNs(meta, xmlNewNs(meta, Self.text(XMPNamespace.meta), Self.text("x")))
        xmlDocSetRootElement(document, meta)
        let rdf = xmlNewChild(meta, nil, Self.text("RDF"), nil)
        let rdfNamespace = xmlNewNs(rdf, Self.text(XMPNamespace.rdf), Self.text("rdf"))
        xmlSetNs(rdf, rdfNamespace)
        let description = xmlNewChild(rdf, rdfNamespace, Self.text("Description"), nil)
        xmlNewNsProp(description, rdfNamespace, Self.text("about"), Self.text(""))
    }

    deinit { xmlFreeDoc(document) }

    /// The packet as UTF-8 bytes.
    func bytes() -> [UInt8] {
        var memory: UnsafeMutablePointer<xmlChar>?
        var size: Int32 = 0
        xmlDocDumpFormatMemoryEnc(document, &memory, &size, "UTF-8", 1)
        guard let memory else { return [] }
        defer { photomap_xml_free(memory) }
        return Array(UnsafeBufferPointer(start: memory, count: Int(size)))
    }

    /// What the packet says of the location: its exif GPS, with photomap's note when the GPS is as photomap
    /// wrote it (another tool's change makes it the sidecar's); a removal photomap wrote; or nil for neither.
    func location() -> SidecarLocation? {
        let latitudeText = value(XMPNamespace.exif, "GPSLatitude")
        let longitudeText = value(XMPNamespace.exif, "GPSLongitude")
        let note = value(XMPNamespace.photomap, "LocationSource").flatMap(LocationSource.init(rawValue:))
        let written = value(XMPNamespace.photomap, "Coordinate")
        guard let latitudeText, let longitudeText else {
            // No GPS: a removal by hand photomap wrote, or nothing said.
            return latitudeText == nil && longitudeText == nil && note == .manual && written == nil
                ? SidecarLocation(coordinate: nil, source: .manual) : nil
        }
        guard let latitude = XMPCoordinate.degrees(latitudeText, .latitude),
            let longitude = XMPCoordinate.degrees(longitudeText, .longitude),
            let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        else { return nil }
        let ours = note != nil && written == "\(latitudeText) \(longitudeText)"
        return SidecarLocation(coordinate: coordinate, source: ours ? note ?? .sidecar : .sidecar)
    }

    /// Writes `coordinate` (nil: none) as the exif namespace does, with `source` in photomap's namespace (nil
    /// for a location taken away that none replaces: the GPS is removed, nothing said).
    func setLocation(_ coordinate: Coordinate?, source: LocationSource?) {
        let descriptions = Self.all(named: "Description", in: XMPNamespace.rdf, below: xmlDocGetRootElement(document))
        for description in descriptions {
            for (namespace, name) in Self.managed { Self.remove(namespace, name, from: description) }
        }
        guard let description = descriptions.first ?? newDescription() else { return }
        var properties: [(String, String, String)] = []
        if let coordinate {
            let latitude = XMPCoordinate.text(coordinate.latitude, .latitude)
            let longitude = XMPCoordinate.text(coordinate.longitude, .longitude)
            properties = [
                (XMPNamespace.exif, "GPSVersionID", "2.2.0.0"), (XMPNamespace.exif, "GPSMapDatum", "WGS-84"),
                (XMPNamespace.exif, "GPSLatitude", latitude), (XMPNamespace.exif, "GPSLongitude", longitude),
                (XMPNamespace.photomap, "Coordinate", "\(latitude) \(longitude)"),
            ]
        }
        if let source { properties.append((XMPNamespace.photomap, "LocationSource", source.rawValue)) }
        for (namespace, name, value) in properties {
            let bound = self.namespace(namespace, on: description)
            xmlSetNsProp(description, bound, Self.text(name), Self.text(value))
        }
    }

    /// A property's value: an attribute of any `rdf:Description`, or the text of its element there.
    private func value(_ namespace: String, _ name: String) -> String? {
        for description in Self.all(named: "Description", in: XMPNamespace.rdf, below: xmlDocGetRootElement(document)) {
            if let attribute = xmlGetNsProp(description, Self.text(name), Self.text(namespace)) {
                defer { photomap_xml_free(attribute) }
                return String(cString: attribute)
            }
            var child = description.pointee.children
            while let node = child {
                child = node.pointee.next
                guard Self.isElement(node, name, namespace), let content = xmlNodeGetContent(node) else { continue }
                defer { photomap_xml_free(content) }
                return String(cString: content).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return nil
    }

    /// An `rdf:Description rdf:about=""` added to the packet's `rdf:RDF`.
    private func newDescription() -> xmlNodePtr? {
        guard let rdf = Self.first(named: "RDF", in: XMPNamespace.rdf, below: xmlDocGetRootElement(document)) else {
            return nil
        }
        let description = xmlNewChild(rdf, rdf.pointee.ns, Self.text("Description"), nil)
        xmlNewNsProp(description, rdf.pointee.ns, Self.text("about"), Self.text(""))
        return description
    }

    /// The namespace `uri` as bound where `node` is, declared on it when it is not (under a prefix no
    /// other namespace holds there).
    private func namespace(_ uri: String, on node: xmlNodePtr) -> xmlNsPtr? {
        if let bound = xmlSearchNsByHref(document, node, Self.text(uri)) { return bound }
        let base = uri == XMPNamespace.exif ? "exif" : "photomap"
        var prefix = base
        var number = 1
        while xmlSearchNs(document, node, Self.text(prefix)) != nil {
            number += 1
            prefix = "\(base)\(number)"
        }
        return xmlNewNs(node, Self.text(uri), Self.text(prefix))
    }

    /// Removes a property from one description: its attribute and its elements.
    private static func remove(_ namespace: String, _ name: String, from description: xmlNodePtr) {
        while let attribute = xmlHasNsProp(description, text(name), text(namespace)) { xmlRemoveProp(attribute) }
        var child = description.pointee.children
        while let node = child {
            child = node.pointee.next
            guard isElement(node, name, namespace) else { continue }
            xmlUnlinkNode(node)
            xmlFreeNode(node)
        }
    }

    /// Whether `node` is the element `name` in `namespace`.
    private static func isElement(_ node: xmlNodePtr, _ name: String, _ namespace: String) -> Bool {
        guard node.pointee.type == XML_ELEMENT_NODE, let bound = node.pointee.ns else { return false }
        return xmlStrEqual(node.pointee.name, text(name)) != 0 && xmlStrEqual(bound.pointee.href, text(namespace)) != 0
    }

    /// The first element `name` in `namespace` at or below `node`, in document order.
    private static func first(named name: String, in namespace: String, below node: xmlNodePtr?) -> xmlNodePtr? {
        all(named: name, in: namespace, below: node).first
    }

    /// Every element `name` in `namespace` at or below `node`, in document order.
    private static func all(named name: String, in namespace: String, below node: xmlNodePtr?) -> [xmlNodePtr] {
        guard let node else { return [] }
        var found: [xmlNodePtr] = []
        var pending = [node]
        while let next = pending.popLast() {
            guard next.pointee.type == XML_ELEMENT_NODE else { continue }
            if isElement(next, name, namespace) { found.append(next) }
            var children: [xmlNodePtr] = []
            var child = next.pointee.children
            while let each = child {
                children.append(each)
                child = each.pointee.next
            }
            pending.append(contentsOf: children.reversed())
        }
        return found
    }

    /// A NUL-terminated copy of `string` as libxml2 takes it.
    private static func text(_ string: String) -> [xmlChar] { Array(string.utf8) + [0] }
}
