// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import Testing

@testable import PhotoMapKit

@Suite("Trips: away days from home, named for their places")
struct TripFinderTests {
    /// Home in Ljubljana, Slovenia.
    static let home = Home(
        coordinate: Coordinate(latitude: 46.0569, longitude: 14.5058)!, name: "Ljubljana, Slovenia",
        country: "Slovenia")
    static let finder = TripFinder(home: home)

    /// Places photos are taken at: home, Kranj (20 km), Florence, Perugia, Villach (Austria, 70 km), and
    /// Trieste (Italy, 12 km from Koper in Slovenia, across the border).
    static let ljubljana = place(46.0569, 14.5058, "Ljubljana", "Ljubljana", "Slovenia")
    static let kranj = place(46.2389, 14.3556, "Kranj", "Kranj", "Slovenia")
    static let florence = place(43.7696, 11.2558, "Florence", "Tuscany", "Italy")
    static let perugia = place(43.1122, 12.3888, "Perugia", "Umbria", "Italy")
    static let villach = place(46.6103, 13.8558, "Villach", "Carinthia", "Austria")
    static let trieste = place(45.6495, 13.7768, "Trieste", "Friuli Venezia Giulia", "Italy")

    typealias Spot = (coordinate: Coordinate, town: String, division: String, country: String)

    static func place(_ latitude: Double, _ longitude: Double, _ town: String, _ division: String, _ country: String)
        -> Spot
    {
        (Coordinate(latitude: latitude, longitude: longitude)!, town, division, country)
    }

    /// A photo taken at local time `taken` at `spot`, or without a location.
    static func photo(_ taken: String, _ spot: Spot?, id: String? = nil) -> TripPhoto {
        TripPhoto(
            id: id ?? "\(taken)|\(spot?.town ?? "-")", taken: taken, coordinate: spot?.coordinate,
            town: spot?.town, division: spot?.division, country: spot?.country)!
    }

    static func summary(_ trips: [Trip]) -> [String] {
        trips.map { "\($0.name) \($0.from)..\($0.to) \($0.days)d \($0.photos.count)p" }
    }

    @Test("A day's photos all far away make a trip; a home day ends it")
    func homeDayEndsTrip() {
        let photos = [
            Self.photo("2024-07-10 09:00:00", Self.ljubljana),
            Self.photo("2024-07-11 09:00:00", Self.florence), Self.photo("2024-07-12 09:00:00", Self.florence),
            Self.photo("2024-07-13 09:00:00", Self.ljubljana),
            Self.photo("2024-07-14 09:00:00", Self.florence),
        ]
        // Two trips a day apart: the home day between them keeps them apart.
        #expect(
            Self.summary(Self.finder.trips(photos)) == [
                "Tuscany, Italy 2024-07-14..2024-07-14 1d 1p", "Tuscany, Italy 2024-07-11..2024-07-12 2d 2p",
            ])
    }

    @Test("A day with any photo near home is a home day, even with others far away")
    func oneNearPhotoMakesAHomeDay() {
        let photos = [
            Self.photo("2024-07-11 09:00:00", Self.florence), Self.photo("2024-07-11 21:00:00", Self.kranj),
        ]
        #expect(Self.finder.trips(photos).isEmpty)
    }

    @Test("A day trip under 50 km is no trip")
    func dayTripNearby() {
        let photos = [
            Self.photo("2024-05-01 10:00:00", Self.kranj), Self.photo("2024-05-01 16:00:00", Self.kranj),
        ]
        #expect(Self.finder.trips(photos).isEmpty)
        // Farther than --away-km 10, it is one.
        let near = TripFinder(home: Self.home, awayKilometres: 10)
        #expect(Self.summary(near.trips(photos)) == ["Kranj, Slovenia 2024-05-01..2024-05-01 1d 2p"])
    }

    @Test("Within the distance but in another country is away")
    func otherCountryNearby() {
        let home = Home(
            coordinate: Coordinate(latitude: 45.5469, longitude: 13.7294)!, name: "Koper", country: "Slovenia")
        let photos = [Self.photo("2024-06-01 10:00:00", Self.trieste)]
        #expect(
            Self.summary(TripFinder(home: home).trips(photos)) == [
                "Friuli Venezia Giulia, Italy 2024-06-01..2024-06-01 1d 1p"
            ])
        // Of unknown country, the distance alone decides.
        let unknown = Home(coordinate: home.coordinate, name: "Koper", country: nil)
        #expect(TripFinder(home: unknown).trips(photos).isEmpty)
    }

    @Test("A photo's day is its own local date: 23:59 and 00:01 in its zone are two days")
    func midnightInThePhotosZone() {
        // 2024-07-12 00:30 in Florence (+02:00) is 07-11 22:30 UTC: the photo still belongs to the 12th,
        // a home day, so the trip of the 11th ends on the 11th.
        let photos = [
            Self.photo("2024-07-11 23:59:00", Self.florence),
            Self.photo("2024-07-12 00:30:00", Self.ljubljana),
            Self.photo("2024-07-13 00:01:00", Self.florence),
        ]
        #expect(
            Self.summary(Self.finder.trips(photos)) == [
                "Tuscany, Italy 2024-07-13..2024-07-13 1d 1p", "Tuscany, Italy 2024-07-11..2024-07-11 1d 1p",
            ])
    }

    @Test("A trip runs across New Year")
    func newYear() {
        let photos = [
            Self.photo("2023-12-30 12:00:00", Self.florence), Self.photo("2023-12-31 23:50:00", Self.florence),
            Self.photo("2024-01-01 00:10:00", Self.perugia), Self.photo("2024-01-02 12:00:00", Self.perugia),
            Self.photo("2024-01-03 12:00:00", Self.ljubljana),
        ]
        let trips = Self.finder.trips(photos)
        #expect(Self.summary(trips) == ["Tuscany and Umbria, Italy 2023-12-30..2024-01-02 4d 4p"])
        #expect(trips.first?.id == "2023-12-30")
    }

    @Test("Up to --gap-days empty days inside a trip, not more")
    func gapDays() {
        let photos = [
            Self.photo("2024-08-01 12:00:00", Self.florence),
            // The 2nd and 3rd without photos, the 4th with one without a location: three empty days.
            Self.photo("2024-08-04 12:00:00", nil),
            Self.photo("2024-08-05 12:00:00", Self.florence),
        ]
        #expect(Self.finder.trips(photos).count == 2)
        let patient = TripFinder(home: Self.home, gapDays: 3)
        #expect(Self.summary(patient.trips(photos)) == ["Tuscany, Italy 2024-08-01..2024-08-05 5d 3p"])
    }

    @Test("A trip's photos without a location are among its photos, not on its route")
    func unlocatedPhotosInside() throws {
        let photos = [
            Self.photo("2024-09-01 08:00:00", Self.florence), Self.photo("2024-09-01 09:00:00", nil),
            Self.photo("2024-09-02 09:00:00", nil), Self.photo("2024-09-02 18:00:00", Self.perugia),
            Self.photo("2024-09-05 09:00:00", nil),
        ]
        let trip = try #require(Self.finder.trips(photos).first)
        #expect(trip.photos.count == 4)
        #expect(trip.route == [Self.florence.coordinate, Self.perugia.coordinate])
        #expect(abs(trip.kilometres - Self.florence.coordinate.distance(to: Self.perugia.coordinate)) < 1e-9)
        #expect(trip.to == "2024-09-02")
    }

    @Test("A two-country trip names both when about equal, and lists its countries most photographed first")
    func twoCountries() throws {
        var photos = (0..<5).map { Self.photo("2024-07-12 1\($0):00:00", Self.villach) }
        photos += (0..<4).map { Self.photo("2024-07-13 1\($0):00:00", Self.florence) }
        let trip = try #require(Self.finder.trips(photos).first)
        // 4 is 80 % of 5: both named.
        #expect(trip.name == "Carinthia, Austria and Tuscany, Italy")
        #expect(trip.countries == ["Austria", "Italy"])
        // 3 is 60 %: the first alone.
        let fewer = Self.finder.trips(Array(photos.dropLast()))
        #expect(fewer.first?.name == "Carinthia, Austria")
    }

    @Test("Home is the town of most distinct days, not of most photos")
    func homeOfMostDays() throws {
        let photos =
            (1...5).map { Self.photo("2024-03-0\($0) 12:00:00", Self.ljubljana) }
            + (0..<9).map { Self.photo("2024-07-12 1\($0):00:00", Self.florence) }
        let home = try #require(Home.mostDays(photos))
        #expect(home.name == "Ljubljana, Slovenia")
        #expect(home.country == "Slovenia")
        #expect(Home.at(Self.florence.coordinate, photos: photos, reach: 50).name == "Florence, Tuscany, Italy")
        let nowhere = Coordinate(latitude: 0, longitude: 0)!
        #expect(Home.at(nowhere, photos: photos, reach: 50).name == "0.0000,0.0000")
    }

    @Test("Shared routes stop 1 km before home and break around it")
    func routeCutBeforeHome() throws {
        let nearHome = Coordinate(latitude: 46.0600, longitude: 14.5058)!  // 350 m north
        let trip = Trip(
            name: "", from: "", to: "", days: 1, photos: [], countries: [],
            route: [
                Self.florence.coordinate, Self.perugia.coordinate, nearHome, Self.villach.coordinate,
                Self.kranj.coordinate,
            ])
        let parts = trip.shownRoute(home: Self.home.coordinate)
        // Cut where the way meets the circle 1 km around home, going in and coming out again.
        #expect(parts.count == 2)
        #expect(Array(parts[0].prefix(2)) == [Self.florence.coordinate, Self.perugia.coordinate])
        #expect(Array(parts[1].suffix(2)) == [Self.villach.coordinate, Self.kranj.coordinate])
        for end in [parts[0].last, parts[1].first] {
            let distance = try #require(end).distance(to: Self.home.coordinate)
            #expect(abs(distance - 1) < 0.001)
        }
        #expect(parts.joined().allSatisfy { $0.distance(to: Self.home.coordinate) >= 0.999 })
    }

    @Test("Visited: countries, regions, towns with photos, days, first and last")
    func visited() throws {
        let photos = [
            Self.photo("2024-07-11 09:00:00", Self.florence), Self.photo("2024-07-11 10:00:00", Self.florence),
            Self.photo("2024-07-12 09:00:00", Self.perugia), Self.photo("2023-01-02 09:00:00", Self.ljubljana),
            Self.photo("2023-01-03 09:00:00", nil),
        ]
        let tree = VisitedPlace.tree(photos)
        #expect(tree.map(\.name) == ["Italy", "Slovenia"])
        let italy = try #require(tree.first)
        #expect((italy.photos, italy.days, italy.first, italy.last) == (3, 2, "2024-07-11", "2024-07-12"))
        #expect(italy.children.map(\.name) == ["Tuscany", "Umbria"])
        #expect(italy.children.first?.children.map { "\($0.name) \($0.photos) \($0.days)" } == ["Florence 2 1"])
    }
}
