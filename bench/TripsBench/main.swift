import Foundation
import PhotoMapKit

// Writes a local catalog of COUNT generated photos into the cache folder FOLDER, as `photomap import`
// would leave it: a life at home in Ljubljana with a trip to one of a dozen European towns about every
// three weeks (two to eight days, some photos without a location), then times the library's part of
// `trips` on it (reading the photos and places, finding the trips). bench/trips.sh then times the whole
// command. Prints figures; not a test.
//   photomap-bench-trips --count 100000 --cache /tmp/trips-cache

var count = 100_000
var folder: URL?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--count": count = arguments.next().flatMap { Int($0) } ?? count
    case "--cache": folder = arguments.next().map { URL(fileURLWithPath: $0) }
    default:
        FileHandle.standardError.write(Data("usage: photomap-bench-trips --count N --cache FOLDER\n".utf8))
        exit(2)
    }
}
guard let folder else {
    FileHandle.standardError.write(Data("usage: photomap-bench-trips --count N --cache FOLDER\n".utf8))
    exit(2)
}

func place(_ id: String, _ name: String, _ division: String, _ country: String, _ latitude: Double, _ longitude: Double)
    -> LocalPlace
{
    LocalPlace(
        id: id, shortName: name, fullName: "\(name), \(division), \(country)",
        coordinate: Coordinate(latitude: latitude, longitude: longitude))
}
let home = place("3196359", "Ljubljana", "Ljubljana", "Slovenia", 46.0511, 14.5051)
let away = [
    place("3176959", "Florence", "Tuscany", "Italy", 43.7792, 11.2463),
    place("3171180", "Perugia", "Umbria", "Italy", 43.1122, 12.3888),
    place("2761369", "Vienna", "Vienna", "Austria", 48.2085, 16.3721),
    place("2762372", "Villach", "Carinthia", "Austria", 46.6103, 13.8558),
    place("3186886", "Zagreb", "City of Zagreb", "Croatia", 45.8144, 15.978),
    place("3054643", "Budapest", "Budapest", "Hungary", 47.4984, 19.0404),
    place("2867714", "Munich", "Bavaria", "Germany", 48.1374, 11.5755),
    place("3169070", "Rome", "Lazio", "Italy", 41.8919, 12.5113),
    place("2988507", "Paris", "Île-de-France", "France", 48.8534, 2.3488),
    place("3117735", "Madrid", "Madrid", "Spain", 40.4165, -3.7026),
    place("2643743", "London", "England", "United Kingdom", 51.5085, -0.1257),
    place("3067696", "Prague", "Prague", "Czechia", 50.088, 14.4208),
]

var random = SystemRandomNumberGenerator()
var changes = LocalCatalogChanges()
// From 2000-01-01, UTC: the times are local ones, as a camera writes them.
let start = 946_684_800
let formatter = DateFormatter()
formatter.locale = Locale(identifier: "en_US_POSIX")
formatter.timeZone = TimeZone(secondsFromGMT: 0)
formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
let perDay = 12
var day = 0
var tripLeft = 0
var spot = home
for index in 0..<count {
    if index % perDay == 0 {
        day += 1
        if tripLeft > 0 {
            tripLeft -= 1
        } else if Int.random(in: 0..<21, using: &random) == 0 {
            tripLeft = Int.random(in: 1...7, using: &random)
            spot = away[Int.random(in: 0..<away.count, using: &random)]
        } else {
            spot = home
        }
        if tripLeft == 0 && spot.id != home.id && Int.random(in: 0..<2, using: &random) == 0 { spot = home }
    }
    let located = Int.random(in: 0..<10, using: &random) > 0
    let centre = spot.coordinate ?? home.coordinate ?? Coordinate(latitude: 46, longitude: 14)!
    let coordinate = Coordinate(
        latitude: centre.latitude + Double.random(in: -0.05...0.05, using: &random),
        longitude: centre.longitude + Double.random(in: -0.05...0.05, using: &random))
    let second = start + day * 86_400 + 8 * 3600 + (index % perDay) * 3600
    let taken = formatter.string(from: Date(timeIntervalSince1970: Double(second)))
    let id = String(1_000_000_000 + index)
    var photo = Photo(id: id, title: "Photo \(index)", dateTaken: taken, coordinate: located ? coordinate : nil)
    photo.locationSource = located ? .exif : nil
    photo.placeID = located ? spot.id : LocalPlace.unlocatedID
    let path = Array("/photos/\(id).jpg".utf8)
    var state = LocalFileState(size: 1000, modified: Int64(second), inode: Int64(index))
    state.photo = id
    state.located = located
    changes.files.append((path, state))
    changes.photos.append((photo, located ? spot : .unlocated, Double(second)))
}

try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let made = Date()
let catalog = try LocalCatalog(file: LocalCatalog.file(in: folder))
_ = try catalog.apply(changes)
FileHandle.standardError.write(
    Data(String(format: "bench: wrote %d photos in %.1f s\n", count, Date().timeIntervalSince(made)).utf8))

let began = Date()
let photos = try catalog.tripPhotos()
let read = Date()
let finder = TripFinder(
    home: Home.mostDays(photos) ?? Home(coordinate: home.coordinate ?? centre(of: photos), name: "", country: nil))
let trips = finder.trips(photos)
let found = Date()
print(
    String(
        format: "%d photos: read %.3f s, home and trips %.3f s; %d trips",
        count, read.timeIntervalSince(began), found.timeIntervalSince(read), trips.count))

/// Where the first located photo is: home when no photo is in a town.
func centre(of photos: [TripPhoto]) -> Coordinate {
    photos.lazy.compactMap(\.coordinate).first ?? away[0].coordinate ?? Coordinate(latitude: 0, longitude: 0)!
}
