import Foundation
import PhotoMapKit

/// What `find` and `search` share: the gazetteer, geocoding by the configured source, `--near`, and
/// the local index with the embedded catalog in it.
final class Locations {
    /// The credit GeoNames' licence asks for.
    static let geonamesCredit = "Place names: GeoNames (geonames.org), CC BY 4.0."

    let configuration: Configuration
    let console: Console
    /// Loaded once per command: `find X --near NAME` geocodes twice.
    private var loadedGazetteer: Gazetteer?

    init(configuration: Configuration, console: Console) {
        self.configuration = configuration
        self.console = console
    }

    /// `--near LAT,LON|NAME`.
    static let nearOption = OptionSpec.value("near", .text("LAT,LON|NAME"), "favour (find) or search around this point or place")

    /// The offline gazetteer: GeoNames cities, the catalog's places and landmarks.
    func gazetteer() throws -> Gazetteer {
        if let loadedGazetteer { return loadedGazetteer }
        guard let fixtures = FixtureSource.locateFixtures(containing: "gazetteer/cities.tsv"),
              let catalog = FixtureSource.locateCatalog(environment: configuration.environment) else {
            throw PageError.assetsMissing("the gazetteer Fixtures/gazetteer/cities.tsv")
        }
        let places = try FixtureSource(catalog: catalog).topPlaces().items
        let gazetteer = try Gazetteer.load(gazetteer: fixtures.appendingPathComponent("gazetteer"),
                                           landmarks: catalog.appendingPathComponent("landmarks.json"), places: places)
        loadedGazetteer = gazetteer
        return gazetteer
    }

    /// Locations for a query: flickr.places.find with the Flickr source online, else the gazetteer.
    func geocode(_ query: String, near: Coordinate?, limit: Int) throws -> [Geocoder.Result] {
        if configuration.source == .flickr && !configuration.offline, let source = try configuration.makeSource(console: console) as? FlickrSource {
            // Flickr ranks its own answers: they keep its order.
            return try source.findPlaces(query).items.compactMap(GazetteerEntry.init(place:)).prefix(limit).map { entry in
                Geocoder.Result(entry: entry, score: 1, distanceKilometres: near.map { $0.distance(to: entry.coordinate) })
            }
        }
        return Geocoder(gazetteer: try gazetteer()).find(query, near: near, limit: limit)
    }

    /// `--near`: a "lat,lon" pair, or a name geocoded to its best location.
    func near(_ parsed: ParsedArguments) throws -> Coordinate? {
        guard let text = parsed.value("near") else { return nil }
        if let coordinate = Geocoder.coordinate(in: text) { return coordinate }
        if text.split(separator: ",").count == 2, text.split(separator: ",").allSatisfy({ Double($0.trimmingCharacters(in: .whitespaces)) != nil }) {
            throw UsageError("--near \(text): latitude must be within ±90 and longitude within ±180")
        }
        guard let best = try geocode(text, near: nil, limit: 1).first else {
            throw CommandFailure("--near: no location found for \"\(text)\"")
        }
        return best.entry.coordinate
    }

    /// Adds what a listing fetched from Flickr to the local index, so `search --offline` finds it later.
    /// A failure here costs the listing nothing: it is a warning.
    func remember(places: [Place] = [], photos: [Photo] = []) {
        guard configuration.source == .flickr else { return }  // the embedded catalog is indexed whole
        do {
            let index = try LocalIndex(file: LocalIndex.file(in: configuration.cacheDirectory))
            try CatalogIndexer(index: index, adapter: configuration.adapter).add(places: places, photos: photos)
        } catch {
            console.warn("could not add the listing to the local index: \(error)")
        }
    }

    /// The local index, holding the embedded catalog (indexed on first use).
    func index() throws -> LocalIndex {
        let index = try LocalIndex(file: LocalIndex.file(in: configuration.cacheDirectory))
        if let catalog = FixtureSource.locateCatalog(environment: configuration.environment) {
            try CatalogIndexer(index: index, adapter: configuration.adapter)
                .ensureCatalog(FixtureSource(catalog: catalog), catalog: catalog) {
                    try gazetteer().entries.filter { $0.kind == .landmark }
                }
        }
        return index
    }
}
