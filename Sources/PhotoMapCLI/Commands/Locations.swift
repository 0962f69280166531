// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel

/// What `find` and `search` share: the gazetteer, geocoding by the configured source, `--near`, and
/// the local index with the embedded catalog in it.
final class Locations {
    /// The credit GeoNames' licence asks for.
    static let geonamesCredit = "Place names: GeoNames (geonames.org), CC BY 4.0."

    let configuration: Services
    let console: Console
    /// Made once per command, and its gazetteer loaded once: `find X --near NAME` geocodes twice.
    private var madeFinder: LocationFinder?

    init(configuration: Services, console: Console) {
        self.configuration = configuration
        self.console = console
    }

    /// `--near LAT,LON|NAME`.
    static let nearOption = Option<String>.text(
        "near", "LAT,LON|NAME", "favour (find) or search around this point or place")

    /// The offline gazetteer: GeoNames cities, the catalog's places and landmarks, through its index
    /// in the cache folder (made on first use, and again when a file changes).
    private static func openGazetteer(
        environment: [String: String],
        cacheDirectory: URL
    ) throws -> any GazetteerLookup {
        guard let fixtures = FixtureSource.locateFixtures(containing: "gazetteer/cities.tsv"),
            let catalog = FixtureSource.locateCatalog(environment: environment)
        else {
            throw LocationError.gazetteerMissing("Fixtures/gazetteer/cities.tsv")
        }
        return try GazetteerIndex.lookup(
            for: GazetteerSources(
                folder: fixtures.appendingPathComponent("gazetteer"), catalog: catalog,
                topPlaces: { try FixtureSource(catalog: catalog).topPlaces().items }),
            in: cacheDirectory)
    }

    /// The finder `find`, `--near` and the served pages geocode with: the gazetteer, and with the Flickr
    /// source online flickr.places.find too.
    func finder() throws -> LocationFinder {
        if let madeFinder { return madeFinder }
        let online = configuration.options.asksFlickr
        let finder = try makeFinder(online: online)
        madeFinder = finder
        return finder
    }

    private func makeFinder(online: Bool) throws -> LocationFinder {
        let environment = configuration.options.environment, cacheDirectory = configuration.options.cacheDirectory
        return LocationFinder(
            gazetteer: { try Self.openGazetteer(environment: environment, cacheDirectory: cacheDirectory) },
            places: online ? try configuration.makeSource(console: console) as? any PlaceFinding : nil)
    }

    /// `body` with the finder; when the network fails, said in one warning, again with the offline
    /// gazetteer alone (which answers every later call too).
    func geocoding<Answer>(_ body: (LocationFinder) throws -> Answer) throws -> Answer {
        do {
            return try body(finder())
        } catch  where ErrorReport.isNoNetwork(error) {
            console.warn("no network (\(error)): answering from the offline gazetteer")
            let offline = try makeFinder(online: false)
            madeFinder = offline
            return try body(offline)
        }
    }

    /// The search `search` and the served pages run: the local index, or Flickr's photos.search online
    /// (unless `offline`, as when the network failed).
    func search(offline: Bool = false) throws -> PhotoSearch {
        let online = configuration.options.asksFlickr && !offline
        return PhotoSearch(
            index: try configuration.state().index,
            online: online ? try configuration.makeSource(console: console) as? any PhotoSearching : nil)
    }

    /// `--near`: a "lat,lon" pair, or a name geocoded to its best location; nil when not given.
    func near(_ text: String?) throws -> Coordinate? {
        guard let text else { return nil }
        do {
            return try geocoding { try $0.point(text) }
        } catch LocationError.coordinateOutOfRange {
            throw UsageError("--near \(text): latitude must be within ±90 and longitude within ±180")
        } catch LocationError.nothingFound {
            throw CommandFailure("--near: no location found for \"\(text)\"")
        }
    }

    /// The local index, holding the embedded catalog and the imported photos (indexed on first use, and
    /// again when they change); `emptied` first for `index rebuild`.
    func index(emptied: Bool = false) throws -> any SearchIndex {
        let store = try configuration.state().index
        let index = try emptied ? store.openEmptied() : store.open()
        if let catalog = FixtureSource.locateCatalog(environment: configuration.options.environment) {
            try CatalogIndexer(index: index, announce: console.note)
                .ensureCatalog(FixtureSource(catalog: catalog), catalog: catalog) {
                    try finder().gazetteer().landmarks()
                }
        }
        if let local = try configuration.state().importedPhotos() {
            try CatalogIndexer(index: index, announce: console.note).ensureLocal(local, adapter: configuration.adapter)
        }
        return index
    }
}
