// SPDX-License-Identifier: Apache-2.0
/// What stops a records file from being imported at all (a record that cannot be read is a line of the
/// report instead).
public enum RecordsError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file cannot be opened or read.
    case unreadable(reason: String)
    /// Neither CSV with the records header nor a GeoJSON FeatureCollection.
    case notRecords
    /// GeoJSON that is not well formed.
    case malformedGeoJSON(String)
    /// A GeoJSON file past `GeoJSONRecordReader.maximumBytes`.
    case tooLarge(bytes: Int)

    /// What failed (the command line adds what to do about it).
    public var description: String {
        switch self {
        case let .unreadable(reason): return "cannot read the records file: \(reason)"
        case .notRecords:
            return "the file is neither CSV with the header \(PhotoRecord.columns.joined(separator: ",")) "
                + "nor a GeoJSON FeatureCollection"
        case let .malformedGeoJSON(problem): return "the GeoJSON records file is \(problem)"
        case let .tooLarge(bytes):
            return
                "the GeoJSON records file is \(bytes >> 20) MB, over the \(GeoJSONRecordReader.maximumBytes >> 20) MB "
                + "read whole"
        }
    }
}
