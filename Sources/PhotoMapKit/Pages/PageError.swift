/// What can go wrong writing map pages and sites.
public enum PageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Leaflet (Debian's libjs-leaflet and libjs-leaflet.markercluster) is not installed.
    case leafletMissing(folder: String)
    /// photomap's own page assets or basemap are not beside the binary or in the checkout.
    case assetsMissing(String)
    /// A page or asset could not be written.
    case writeFailed(path: String, reason: String)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case let .leafletMissing(folder):
            return "Leaflet is not installed in \(folder): apt-get install libjs-leaflet libjs-leaflet.markercluster (or set PHOTOMAP_LEAFLET_DIR)"
        case let .assetsMissing(what):
            return "cannot find \(what): run photomap from its build folder or checkout (scripts/setup)"
        case let .writeFailed(path, reason):
            return "cannot write \(path): \(reason)"
        }
    }
}
