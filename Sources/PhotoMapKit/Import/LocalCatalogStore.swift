// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// Where the imported photos are kept: `LocalCatalog` (SQLite beside the cache, the default) or
/// `PostgresLocalCatalog` (the database a fleet shares). A store is used by one thread at a time.
/// What it lists is what others may see: a photo a geofence holds has no location and is in the place
/// of the photos without one, unless `showsFenced` (the owner's own view from the terminal). It lists only
/// the photos whose visibility is among `audiences` (a viewer's), and those whose location audience is not
/// among them as a fence would: without a location.
public protocol LocalCatalogStore {
    /// Whether fenced photos are listed with their locations and places.
    var showsFenced: Bool { get set }
    /// The audiences of the viewer the store lists for (`Audience.seen(by:)`): anyone's unless set.
    var audiences: Set<Audience> { get set }
    /// Every file seen, by path.
    func files() throws -> [[UInt8]: LocalFileState]
    /// The files seen at or below these paths (each absolute, as the catalog keeps it), by path.
    func files(below roots: [[UInt8]]) throws -> [[UInt8]: LocalFileState]
    /// Of the photos `ids`, those it holds, each with whether it has a location.
    func located(ids: [String]) throws -> [String: Bool]
    /// Applies what one import found, all of it or (on error) none; returns how many photos went.
    func apply(_ changes: LocalCatalogChanges) throws -> Int
    /// Keeps photos read from records (`import --records`), each with its image's row, all or (on error)
    /// none; one whose record the catalog holds as it is changes nothing. A photo new to the catalog gets
    /// `privacy`; one there already keeps its own. Returns the photos written.
    func keepRecords(_ records: [RecordPhoto], privacy: PhotoPrivacy) throws -> [Photo]
    /// A number that moves on whenever an import, a geotag or a fence changes the photos, or new tracks
    /// come (0 before any import).
    func version() throws -> Int
    /// The places with photos, most photos first, the photos without a location last.
    func places() throws -> [Place]
    /// Up to `limit` photos of a place, newest first, and how many it has.
    func photos(inPlace id: String, limit: Int) throws -> (photos: [Photo], total: Int)
    /// Every photo.
    func allPhotos() throws -> [Photo]
    /// The photo of this id, or nil.
    func photo(id: String) throws -> Photo?
    /// Of the photos `ids`, those it lists, each with whether it lists it without its location: one
    /// query for a batch of an import, not one a photo.
    func listed(ids: [String]) throws -> [String: Bool]
    /// The files holding a photo, with what they were when read.
    func files(ofPhoto id: String) throws -> [(path: [UInt8], state: LocalFileState)]
    /// The GPS tracks photos were located from, whole, fences or not, in the order they were first given.
    func keptTrackLines() throws -> TrackLines
    /// Keeps the lines of tracks given to `import --gpx` or `geotag`, each once (by its points' digest).
    func keep(_ tracks: TrackLines) throws
    /// Every photo as geotagging sees it, in the order of their ids.
    func clockedPhotos() throws -> [ClockedPhoto]
    /// Gives photos the locations tracks or neighbours put them at, and their places (or takes a track's
    /// away), all or (on error) none; returns their records as written.
    func locate(_ located: [LocatedPhoto]) throws -> [Photo]
    /// The geofences, by name.
    func fences() throws -> [Geofence]
    /// Adds a fence and hides the photos it holds; throws `GeofenceError.duplicate` for a name in use.
    func add(_ fence: Geofence) throws
    /// Removes the fence named `name`, showing the photos only it held; throws `GeofenceError.unknown`.
    func removeFence(named name: String) throws
    /// Every located photo's id and its own coordinate, fenced or not.
    func locatedCoordinates() throws -> [(id: String, coordinate: Coordinate)]
    /// Every photo with a time taken, as trips and `visited` read them: read from the columns, as
    /// `TripPhoto.photos(allPhotos(), places: places())` makes them, but for a town's centre, always its own
    /// (home is found from it and never shown; `places()` gives others a fenced centre's photos' mean).
    func tripPhotos() throws -> [TripPhoto]
    /// The rows of the days photos were taken on (`trip_days`), as the viewer sees them; nil where the
    /// catalog keeps none (then trips are found from `tripPhotos()`).
    func tripDays() throws -> [TripDay]?
    /// `tripPhotos()` of the local dates in `spans` ("YYYY-MM-DD" to "YYYY-MM-DD", by the text), as
    /// the viewer sees them: each photo once however many spans hold it.
    func tripPhotos(in spans: [ClosedRange<String>]) throws -> [TripPhoto]
    /// The clusters of the photos in `tile` taken in `months`, as others may see them (`showsFenced`: all),
    /// from the aggregates the database keeps (`MapGridSQL`).
    func mapClusters(in tile: MapTile, months: MonthRange) throws -> [MapCluster]
    /// The same clusters the naive way: the tile's photos read whole and clustered in Swift.
    func naiveMapClusters(in tile: MapTile, months: MonthRange) throws -> [MapCluster]
    /// The map's dated photos by month, `[month, count, …]` in month order (the timeline's counts).
    func mapMonths() throws -> [Int]
    /// The photos `selection` names that exist, each with its audiences (every photo, whoever views).
    func privacy(of selection: PhotoSelection) throws -> [(id: String, privacy: PhotoPrivacy)]
    /// Gives the photos `ids` the audiences `privacy`, all or (on error) none; the version moves on.
    func setPrivacy(_ privacy: PhotoPrivacy, of ids: [String]) throws
}

/// Which imported photos `photomap visibility` sets.
public enum PhotoSelection: Sendable, Equatable {
    /// These photos.
    case ids([String])
    /// Every photo of a place (where it was taken, fenced or not).
    case place(String)
    /// Every photo.
    case all
}

extension LocalCatalogStore {
    /// One place, or nil when no photo is in it.
    public func place(_ id: String) throws -> Place? {
        try places().first { $0.id == id }
    }

    /// The GPS tracks as maps draw them for others: cut by the fences (`[Geofence].shown`, no point within
    /// a fence nor its margin), unless `showsFenced`. Every page, export and server reads them here.
    public func trackLines() throws -> TrackLines {
        let kept = try keptTrackLines()
        return showsFenced || kept.isEmpty ? kept : try fences().shown(kept)
    }

    /// How many photos each fence holds, by name (a photo in two fences counts in both).
    public func fencedCounts() throws -> [String: Int] {
        let fences = try fences()
        var counts = Dictionary(uniqueKeysWithValues: fences.map { ($0.name, 0) })
        guard !fences.isEmpty else { return counts }
        for (_, coordinate) in try locatedCoordinates() {
            for fence in fences where fence.contains(coordinate) { counts[fence.name, default: 0] += 1 }
        }
        return counts
    }

    /// The paths of the files holding a photo, as text (bytes that are not UTF-8 shown as U+FFFD).
    public func paths(ofPhoto id: String) throws -> [String] {
        try files(ofPhoto: id).map { String(decoding: $0.path, as: UTF8.self) }
    }
}

/// What a file was when it was last read: unchanged, it is not read again.
public struct LocalFileState: Sendable, Equatable {
    /// Size in bytes.
    public var size: Int64
    /// Modification time in nanoseconds since 1970.
    public var modified: Int64
    /// Inode number.
    public var inode: Int64
    /// The photo it holds; nil when it was skipped.
    public var photo: String?
    /// Why it was skipped, or what was left out of it (the report's line); nil when nothing was.
    public var problem: String?
    /// Whether its photo has a location.
    public var located = false
    /// Where that location came from.
    public var locationSource: LocationSource?
    /// Whether it is no JPEG or HEIC file.
    public var isOther = false

    /// A file as `stat` found it, not yet read.
    public init(size: Int64, modified: Int64, inode: Int64) {
        self.size = size
        self.modified = modified
        self.inode = inode
    }

    /// The paths below the folder `root` (bytes compared one by one, as both engines order paths): from
    /// `root` and a slash up to, not including, `root` and the byte after the slash.
    static func pathRange(below root: [UInt8]) -> (lower: [UInt8], upper: [UInt8]) {
        let folder = root.last == 0x2F ? root : root + [0x2F]
        return (folder, folder.dropLast() + [0x30])
    }

    /// Whether `other` is the same file, unchanged: size, modification time and inode.
    func isUnchanged(from other: LocalFileState) -> Bool {
        size == other.size && modified == other.modified && inode == other.inode
    }
}

/// What one import found: files read, photos made (with their place, and when they were taken, in
/// seconds since 1970, for the order of a place's photos), files gone, the photos' clocks and cameras.
public struct LocalCatalogChanges: Sendable {
    public var files: [(path: [UInt8], state: LocalFileState)] = []
    public var photos: [(photo: Photo, place: LocalPlace, taken: Double?)] = []
    public var gone: [[UInt8]] = []
    /// The clock and camera of each photo made, by id (kept for `geotag`).
    public var captures: [String: PhotoCapture] = [:]
    /// The audiences of the photos it adds (`import --visibility`); photos already there keep theirs.
    public var privacy = PhotoPrivacy(visibility: .private)

    /// No changes yet.
    public init() {}

    /// Whether it changes the photos (and so `version`).
    var changesPhotos: Bool { !files.isEmpty || !gone.isEmpty }
}
