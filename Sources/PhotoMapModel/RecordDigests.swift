// SPDX-License-Identifier: Apache-2.0
import PhotoMapSupport

/// The model's records as inputs of a page or an index entry (`InputDigest`): every field, in a fixed
/// order.
extension InputDigest {
    /// Adds a coordinate or its absence, exactly (bit patterns).
    public func add(_ coordinate: Coordinate?) {
        add(coordinate.map { Int(truncatingIfNeeded: $0.latitude.bitPattern) })
        guard let coordinate else { return }
        add(Int(truncatingIfNeeded: coordinate.longitude.bitPattern))
    }
}

extension Photo {
    /// The digest of every field of the record: the pages showing the photo are made again when any of
    /// them changes.
    public var inputDigest: [UInt8] {
        let inputs = InputDigest()
        addFields(to: inputs)
        return inputs.finishDigest()
    }

    /// Adds every field of the record, in a fixed order. A field added to `Photo` must be added here too
    /// (a test counts them).
    package func addFields(to inputs: InputDigest) {
        for text in [id, owner, pathAlias, secret, server, title, descriptionHTML, ownerName] { inputs.add(text) }
        inputs.add(dateTaken)
        inputs.add(tags.count)
        for tag in tags { inputs.add(tag) }
        inputs.add(coordinate)
        inputs.add(placeID)
        for size in PhotoSize.allCases {
            let image = images[size]
            inputs.add(image?.url)
            inputs.add(image?.width)
            inputs.add(image?.height)
        }
        inputs.add(license?.id)
        inputs.add(license?.name)
        inputs.add(license?.url)
        inputs.add(locationSource?.rawValue)
        inputs.add(estimateOffset)
        inputs.add(sourceID)
    }
}

extension Place {
    /// Adds every field of the record, in a fixed order (a test counts them).
    package func addFields(to inputs: InputDigest) {
        for text in [id, woeid, fullName, shortName, url, type, timezone] { inputs.add(text) }
        inputs.add(coordinate)
        inputs.add(typeID)
        inputs.add(photoCount)
    }
}
