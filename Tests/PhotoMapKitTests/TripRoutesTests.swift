// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import Testing

@testable import PhotoMapKit

@Suite("Trips' routes: the track lines of their days, else their photos; cut before home and by fences")
struct TripRoutesTests {
    static let home = Coordinate(latitude: 46.0569, longitude: 14.5058)!
    static let florence = Coordinate(latitude: 43.7696, longitude: 11.2558)!
    static let siena = Coordinate(latitude: 43.3188, longitude: 11.3308)!
    static let arezzo = Coordinate(latitude: 43.4633, longitude: 11.8796)!

    /// Seconds since 1970 of a UTC time "YYYY-MM-DD HH:MM:SS".
    static func utc(_ text: String) -> Double {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.date(from: text)?.timeIntervalSince1970 ?? .nan
    }

    static func trip(from: String, to: String, photos: [(String, Coordinate?)]) -> Trip {
        let photos = photos.enumerated().map { index, photo in
            TripPhoto(id: "p\(index)", taken: photo.0, coordinate: photo.1)!
        }
        return Trip(
            name: "Tuscany, Italy", from: from, to: to, days: 1, photos: photos, countries: ["Italy"],
            route: photos.compactMap(\.coordinate))
    }

    @Test("A line's day is its start's date at its longitude's solar offset")
    func localDate() {
        // 23:30 UTC at 11° east is 00:30 the next day (an hour ahead); at 75° west, 18:30 the same day.
        #expect(TripRoutes.localDate(Self.utc("2024-07-11 23:30:00"), longitude: 11) == "2024-07-12")
        #expect(TripRoutes.localDate(Self.utc("2024-07-11 23:30:00"), longitude: -75) == "2024-07-11")
        #expect(TripRoutes.localDate(Self.utc("2024-12-31 23:59:59"), longitude: 0) == "2024-12-31")
        #expect(TripRoutes.localDate(Self.utc("1969-12-31 12:00:00"), longitude: 0) == "1969-12-31")
        #expect(TripRoutes.localDate(Self.utc("2000-02-29 12:00:00"), longitude: 0) == "2000-02-29")
    }

    @Test("Lines go whole to the trip of their day; others, and lines without a time, to none")
    func attach() {
        let newer = Self.trip(from: "2024-07-12", to: "2024-07-13", photos: [("2024-07-12 10:00:00", Self.siena)])
        let older = Self.trip(from: "2023-05-01", to: "2023-05-01", photos: [("2023-05-01 10:00:00", Self.arezzo)])
        let drive = [Self.home, Self.florence, Self.siena]
        let walk = [Self.siena, Self.arezzo]
        let lines = TrackLines(
            [drive, walk, [Self.arezzo, Self.florence], [Self.florence, Self.arezzo]],
            starts: [
                Self.utc("2024-07-12 05:00:00"), Self.utc("2024-07-13 08:00:00"), nil, Self.utc("2024-08-01 08:00:00"),
            ])
        let trips = TripRoutes.attach(lines, to: [newer, older])
        #expect(
            trips[0].tracks == [TripTrack(date: "2024-07-12", line: drive), TripTrack(date: "2024-07-13", line: walk)])
        #expect(trips[0].way == [drive, walk])
        #expect(trips[0].way(on: "2024-07-13") == [walk])
        #expect(trips[1].tracks.isEmpty)
        #expect(trips[1].way == [[Self.arezzo]])
        // The drive from home counts in the distance: home to Florence to Siena, then the walk.
        let expected =
            Self.home.distance(to: Self.florence) + Self.florence.distance(to: Self.siena)
            + Self.siena.distance(to: Self.arezzo)
        #expect(abs(trips[0].kilometres - expected) < 1e-9)
    }

    @Test("Without tracks, a day's way is its located photos in the order taken")
    func photosWay() {
        let trip = Self.trip(
            from: "2024-07-12", to: "2024-07-13",
            photos: [
                ("2024-07-12 09:00:00", Self.florence), ("2024-07-12 12:00:00", nil),
                ("2024-07-12 18:00:00", Self.siena), ("2024-07-13 09:00:00", Self.arezzo),
            ])
        #expect(trip.way == [[Self.florence, Self.siena, Self.arezzo]])
        #expect(trip.way(on: "2024-07-12") == [[Self.florence, Self.siena]])
    }

    @Test("A drawing leaves out home's kilometre and every fence, simplified")
    func drawing() throws {
        let fence = Geofence(name: "hotel", centre: Self.siena, radius: 500)
        // The drive from home, through Florence and past the fenced hotel in Siena to Arezzo.
        var line = [Self.home]
        for step in 1...4000 {
            let fraction = Double(step) / 4000
            line.append(
                Coordinate(
                    latitude: Self.home.latitude + (Self.siena.latitude - Self.home.latitude) * fraction,
                    longitude: Self.home.longitude + (Self.siena.longitude - Self.home.longitude) * fraction)!)
        }
        line.append(Self.arezzo)
        let drawing = try #require(Trip.drawing([line], home: Self.home, fences: [fence]))
        #expect(drawing.lines.count == 2)
        #expect(drawing.pointCount <= TrackLines.pointsPerPage)
        let points = drawing.lines.flatMap { numbers in
            var (latitude, longitude) = (0, 0)
            return stride(from: 0, to: numbers.count - 1, by: 2).map { index in
                latitude += numbers[index]
                longitude += numbers[index + 1]
                return Coordinate(
                    latitude: Double(latitude) / TrackDrawing.scale, longitude: Double(longitude) / TrackDrawing.scale)!
            }
        }
        #expect(points.allSatisfy { $0.distance(to: Self.home) >= 0.99 })
        #expect(points.allSatisfy { $0.distance(to: Self.siena) * 1000 >= 550 })
    }
}
