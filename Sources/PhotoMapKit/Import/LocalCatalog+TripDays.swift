// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// `trip_days`: the photos of each local day by place and by whom they show to (fenced or not, their
/// audiences), with how many are located and the box they lie in. Triggers keep it as photos are
/// written, in the writing transaction, each change costing its own day's rows alone; trips are found
/// from it (`TripDay`), reading the photos of their days only.
extension LocalCatalog {
    /// The columns that say which viewers see a row's photos and where: `hiddenColumn` and `visibleRows`
    /// read them on `trip_days` as on `photos`.
    private static let classColumns = "hidden, visibility, location_audience"
    /// A photo's day: the date its own local time begins with, as `TripPhoto.dayNumber` reads it.
    private static func day(_ row: String) -> String { "substr(\(row)date_taken, 1, 10)" }
    /// Whether a photo is located, as `Coordinate` reads one.
    private static let located =
        "(latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180)"
    /// The rows of the photos `filter` selects, made into the table.
    private static func rows(where filter: String) -> String {
        "INSERT INTO trip_days \(tripDaysQuery(where: filter));"
    }

    /// The rows of the photos `filter` selects, as the table holds them.
    static func tripDaysQuery(where filter: String) -> String {
        """
        SELECT \(day("")), place, \(classColumns), count(*), count(CASE WHEN \(located) THEN 1 END),
            min(CASE WHEN \(located) THEN latitude END), max(CASE WHEN \(located) THEN latitude END),
            min(CASE WHEN \(located) THEN longitude END), max(CASE WHEN \(located) THEN longitude END),
            max(CASE WHEN \(located) THEN rowid END)
        FROM photos WHERE \(filter) GROUP BY \(day("")), place, \(classColumns)
        """
    }
    /// The statements that make the rows of `row`'s day, place and class ("OLD." or "NEW.") again.
    private static func redo(_ row: String) -> String {
        let same =
            "place = \(row)place AND hidden = \(row)hidden AND visibility = \(row)visibility "
            + "AND location_audience = \(row)location_audience"
        return """
            DELETE FROM trip_days WHERE day = \(day(row)) AND \(same);
            \(rows(where: "\(day("")) = \(day(row)) AND \(same)"))
            """
    }

    /// The table, its index and triggers: a photo added counts in its row; one removed or changed has
    /// its rows made again from the photos (a box cannot lose a point). A photo replaced (`apply`'s
    /// INSERT OR REPLACE) is removed, then added: the connection's triggers are recursive for it. Triggers
    /// left by a table dropped by hand go first (writes would fail on the missing table).
    static let tripDaysSQL = """
        DROP TRIGGER IF EXISTS trip_day_added; DROP TRIGGER IF EXISTS trip_day_removed;
        DROP TRIGGER IF EXISTS trip_day_changed;
        CREATE TABLE trip_days (day TEXT NOT NULL, place TEXT NOT NULL, hidden INTEGER NOT NULL,
            visibility TEXT NOT NULL, location_audience TEXT NOT NULL, photos INTEGER NOT NULL,
            located INTEGER NOT NULL, min_latitude REAL, max_latitude REAL, min_longitude REAL,
            max_longitude REAL, last_located INTEGER,
            PRIMARY KEY (day, place, \(classColumns))) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS photos_day ON photos (\(day("")), place);
        \(rows(where: "date_taken IS NOT NULL"))
        CREATE TRIGGER trip_day_added AFTER INSERT ON photos WHEN NEW.date_taken IS NOT NULL BEGIN
            INSERT INTO trip_days
            SELECT \(day("NEW.")), NEW.place, NEW.hidden, NEW.visibility, NEW.location_audience, 1, l, lat, lat, lon,
                lon, CASE WHEN l = 1 THEN NEW.rowid END
            FROM (SELECT (NEW.latitude BETWEEN -90 AND 90 AND NEW.longitude BETWEEN -180 AND 180) IS 1 AS l,
                CASE WHEN (NEW.latitude BETWEEN -90 AND 90 AND NEW.longitude BETWEEN -180 AND 180) IS 1
                    THEN NEW.latitude END AS lat,
                CASE WHEN (NEW.latitude BETWEEN -90 AND 90 AND NEW.longitude BETWEEN -180 AND 180) IS 1
                    THEN NEW.longitude END AS lon) WHERE 1
            ON CONFLICT (day, place, \(classColumns)) DO UPDATE SET photos = photos + 1,
                located = located + excluded.located,
                min_latitude = min(coalesce(min_latitude, excluded.min_latitude),
                    coalesce(excluded.min_latitude, min_latitude)),
                max_latitude = max(coalesce(max_latitude, excluded.max_latitude),
                    coalesce(excluded.max_latitude, max_latitude)),
                min_longitude = min(coalesce(min_longitude, excluded.min_longitude),
                    coalesce(excluded.min_longitude, min_longitude)),
                max_longitude = max(coalesce(max_longitude, excluded.max_longitude),
                    coalesce(excluded.max_longitude, max_longitude)),
                last_located = max(coalesce(last_located, excluded.last_located),
                    coalesce(excluded.last_located, last_located));
        END;
        CREATE TRIGGER trip_day_removed AFTER DELETE ON photos WHEN OLD.date_taken IS NOT NULL BEGIN
        \(redo("OLD."))
        END;
        CREATE TRIGGER trip_day_changed AFTER UPDATE OF date_taken, place, latitude, longitude, \(classColumns)
            ON photos
        WHEN OLD.date_taken IS NOT NEW.date_taken OR OLD.place IS NOT NEW.place
            OR OLD.latitude IS NOT NEW.latitude OR OLD.longitude IS NOT NEW.longitude
            OR OLD.hidden IS NOT NEW.hidden OR OLD.visibility IS NOT NEW.visibility
            OR OLD.location_audience IS NOT NEW.location_audience
        BEGIN
        \(redo("OLD."))
        \(redo("NEW."))
        END;
        """

    /// Makes `trip_days` from the photos of a catalog made before it, in one transaction.
    func prepareTripDays() throws {
        // REPLACE removes the row it replaces through the removal's trigger only so.
        try database.execute("PRAGMA recursive_triggers = ON")
        guard try !hasTripDays() else { return }
        try database.transaction { try database.execute(Self.tripDaysSQL) }
    }

    func hasTripDays() throws -> Bool {
        try database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'trip_days'").step()
    }

    public func tripDays() throws -> [TripDay]? {
        guard knowsTripDays else { return nil }
        let names = try placeNames()
        let rows = try database.prepare(
            """
            SELECT day, place, \(hiddenColumn), located, min_latitude, max_latitude, min_longitude, max_longitude,
                last_located
            FROM trip_days WHERE \(visibleRows)
            """)
        var days: [TripDay] = []
        while try rows.step() {
            let shown = rows.integer(2) != 1
            let place = rows.text(1)
            let located = shown ? Int(rows.integer(3) ?? 0) : 0
            let box =
                located > 0
                ? TripDay.Box(
                    latitudes: (rows.real(4) ?? 0)...(rows.real(5) ?? 0),
                    longitudes: (rows.real(6) ?? 0)...(rows.real(7) ?? 0)) : nil
            let day = TripDay(
                text: rows.text(0), place: place, names: shown ? names[place] : nil, box: box,
                located: located, lastLocated: rows.integer(8) ?? 0)
            if let day { days.append(day) }
        }
        return days
    }

    public func tripPhotos(in spans: [ClosedRange<String>]) throws -> [TripPhoto] {
        guard knowsTripDays else {
            return try tripPhotos().filter { photo in spans.contains { $0.contains(photo.date) } }
        }
        // One span after another: each photo read once.
        let joined = TripDay.joined(spans)
        let names = try placeNames()
        return try joined.flatMap { span in
            try tripPhotos(
                where: "\(Self.day("")) BETWEEN ? AND ? AND \(visibleRows)",
                [.text(span.lowerBound), .text(span.upperBound)],
                names: names)
        }
    }
}
