// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// `trip_days` on PostgreSQL, as `LocalCatalog` keeps it on SQLite: the photos of each local day by place and
/// by whom they show to, with how many are located and the box they lie in. Statement triggers keep it
/// in the writing transaction, reading what a statement wrote from its transition tables: a batch of
/// records (`import --records`, one statement) adds its rows with one grouped upsert, and a change or
/// removal counts each day, place and class it touched once again from that day's photos. Trips are
/// found from it (`TripDay`), reading the photos of their days only.
extension PostgresLocalCatalog {
    /// The columns that say which viewers see a row's photos and where: `hiddenColumn` and `visibleRows`
    /// read them on `trip_days` as on `local_photos`.
    private static let classColumns = "hidden, visibility, location_audience"
    /// A photo's day: the date its own local time begins with, compared byte by byte as Swift compares
    /// `TripPhoto.date` (the index `local_photos_day` is on this expression).
    static let day = "substr(date_taken, 1, 10) COLLATE \"C\""
    /// The advisory lock each trigger takes, held to the writing transaction's end: a recount reads the
    /// photos committed when it runs, so a writer whose photos it cannot see yet must add or count them
    /// after it, not beside it (two recounts of one day at once would each miss the other's photos).
    static let tripDaysLock = 0x7068_6f74_6f64_6179  // "photoday"
    /// Whether a photo is located, as `Coordinate` reads one.
    private static let located = "latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180"

    /// The rows the dated photos of `table` (photos, or a trigger's transition table) make, as the table
    /// holds them. `last_located` is the greatest `written` of the located photos: the order photos were
    /// first written in, as SQLite's rowid, by which `Home.mostDays` gives a town of two places the
    /// country and centre of the one photographed last.
    static func tripDaysQuery(from table: String = "local_photos", where filter: String = "true") -> String {
        let whereLocated = "FILTER (WHERE \(located))"
        return """
            SELECT \(day) AS day, place, \(classColumns), count(*) AS photos, count(*) \(whereLocated) AS located,
                min(latitude) \(whereLocated), max(latitude) \(whereLocated), min(longitude) \(whereLocated),
                max(longitude) \(whereLocated), max(written) \(whereLocated)
            FROM \(table) WHERE date_taken IS NOT NULL AND \(filter) GROUP BY \(day), place, \(classColumns)
            """
    }

    /// The day, place and class of the dated rows of `table`, as `trip_days` keys them.
    private static func groups(of table: String, where filter: String = "true") -> String {
        "SELECT DISTINCT \(day) AS day, place, \(classColumns) FROM \(table) t WHERE date_taken IS NOT NULL AND \(filter)"
    }

    /// The statements that count the groups `touched` (a SELECT of `groups(of:)`'s columns) again from
    /// their photos: their rows deleted, then made from the photos they still have.
    private static func recount(_ touched: String) -> String {
        let same = ["day", "place", "hidden", "visibility", "location_audience"].map { "d.\($0) = g.\($0)" }
        return """
                DELETE FROM trip_days d USING (\(touched)) g WHERE \(same.joined(separator: " AND "));
                INSERT INTO trip_days \(tripDaysQuery(where: """
                (\(day), place, \(classColumns)) IN (SELECT day, place, \(classColumns) FROM (\(touched)) g)
                """));
            """
    }

    /// A trigger's first statements: none when its statement wrote no row (an upsert's other half, an
    /// UPDATE that matched nothing), so that it holds no other writer up; else `tripDaysLock`.
    private static func lock(unlessEmpty table: String) -> String {
        "IF NOT EXISTS (SELECT 1 FROM \(table)) THEN RETURN NULL; END IF; PERFORM pg_advisory_xact_lock(\(tripDaysLock));"
    }

    /// The migration that makes the table, fills it from the photos there, and adds the triggers. Each
    /// photo gets `written`, from a sequence, first in the order the rows lie (as SQLite's rowids);
    /// a row written again keeps its own.
    static let tripDaysMigration: String = {
        // The columns a row's day, place, class, box and order come from: an update that changes none of
        // them (a record's title, a file) counts nothing.
        let read = [
            "date_taken", "place", "hidden", "visibility", "location_audience", "latitude", "longitude", "written",
        ]
        func changed(_ from: String, _ other: String) -> String {
            let same =
                "(\(read.map { "o.\($0)" }.joined(separator: ", "))) IS NOT DISTINCT FROM (\(read.map { "t.\($0)" }.joined(separator: ", ")))"
            return groups(of: from, where: "NOT EXISTS (SELECT 1 FROM \(other) o WHERE o.id = t.id AND \(same))")
        }
        let key = "day, place, \(classColumns)"
        return """
            -- The photos of each local day (the first ten characters of date_taken) by place and by the columns that
            -- say who sees them, with how many are located, their box and the last written of them: `trips`
            -- finds home and trips from these, reading only the photos of the trips' days. Kept by the statement
            -- triggers below in the writing transaction; `written` orders photos as SQLite's rowid does.
            CREATE SEQUENCE local_photos_written;
            ALTER TABLE local_photos ADD COLUMN written bigint NOT NULL DEFAULT nextval('local_photos_written');
            ALTER SEQUENCE local_photos_written OWNED BY local_photos.written;
            CREATE INDEX local_photos_day ON local_photos ((\(day)), place);
            CREATE TABLE trip_days (day text COLLATE "C" NOT NULL, place text NOT NULL, hidden boolean NOT NULL,
                visibility text NOT NULL, location_audience text NOT NULL, photos bigint NOT NULL,
                located bigint NOT NULL, min_latitude double precision, max_latitude double precision,
                min_longitude double precision, max_longitude double precision, last_located bigint,
                PRIMARY KEY (\(key)));
            INSERT INTO trip_days \(tripDaysQuery());
            -- Photos added: their groups' counts added to the rows (a box only grows).
            CREATE FUNCTION trip_days_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                \(lock(unlessEmpty: "added"))
                INSERT INTO trip_days \(tripDaysQuery(from: "added"))
                ON CONFLICT (\(key)) DO UPDATE SET photos = trip_days.photos + excluded.photos,
                    located = trip_days.located + excluded.located,
                    min_latitude = least(trip_days.min_latitude, excluded.min_latitude),
                    max_latitude = greatest(trip_days.max_latitude, excluded.max_latitude),
                    min_longitude = least(trip_days.min_longitude, excluded.min_longitude),
                    max_longitude = greatest(trip_days.max_longitude, excluded.max_longitude),
                    last_located = greatest(trip_days.last_located, excluded.last_located);
                RETURN NULL;
            END $$;
            CREATE TRIGGER trip_days_added AFTER INSERT ON local_photos REFERENCING NEW TABLE AS added
                FOR EACH STATEMENT EXECUTE FUNCTION trip_days_added();
            -- Photos removed or changed: each group they left or joined counted again (a box cannot lose a point).
            CREATE FUNCTION trip_days_removed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                \(lock(unlessEmpty: "removed"))
            \(recount(groups(of: "removed")))
                RETURN NULL;
            END $$;
            CREATE TRIGGER trip_days_removed AFTER DELETE ON local_photos REFERENCING OLD TABLE AS removed
                FOR EACH STATEMENT EXECUTE FUNCTION trip_days_removed();
            CREATE FUNCTION trip_days_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                \(lock(unlessEmpty: "new_photos"))
            \(recount("\(changed("old_photos", "new_photos")) UNION \(changed("new_photos", "old_photos"))"))
                RETURN NULL;
            END $$;
            CREATE TRIGGER trip_days_changed AFTER UPDATE ON local_photos
                REFERENCING OLD TABLE AS old_photos NEW TABLE AS new_photos
                FOR EACH STATEMENT EXECUTE FUNCTION trip_days_changed();
            """
    }()
}

extension PostgresLocalCatalog {
    public func tripDays() throws -> [TripDay]? {
        let (names, rows) = try pool.withConnection { connection in
            (
                try Self.placeNames(on: connection),
                try connection.execute(
                    """
                    SELECT day, place, \(hiddenColumn), located, min_latitude, max_latitude, min_longitude,
                        max_longitude, last_located
                    FROM trip_days WHERE \(visibleRows)
                    """, binaryResult: true)
            )
        }
        var days: [TripDay] = []
        days.reserveCapacity(rows.count)
        for row in 0..<rows.count {
            let shown = try rows.bool(row, 2) != true
            let place = rows.text(row, 1) ?? ""
            let located = shown ? Int(try rows.int64(row, 3) ?? 0) : 0
            let box =
                located > 0
                ? TripDay.Box(
                    latitudes: (try rows.real(row, 4) ?? 0)...(try rows.real(row, 5) ?? 0),
                    longitudes: (try rows.real(row, 6) ?? 0)...(try rows.real(row, 7) ?? 0)) : nil
            let day = TripDay(
                text: rows.text(row, 0) ?? "", place: place, names: shown ? names[place] : nil, box: box,
                located: located, lastLocated: try rows.int64(row, 8) ?? 0)
            if let day { days.append(day) }
        }
        return days
    }

    public func tripPhotos(in spans: [ClosedRange<String>]) throws -> [TripPhoto] {
        // Each photo read once however many spans hold it, all in one query on the index of the day (a
        // span's dates are "YYYY-MM-DD": a space never falls inside one).
        let joined = TripDay.joined(spans)
        guard !joined.isEmpty else { return [] }
        return try tripPhotos(
            from: """
                unnest(string_to_array($1, ' '), string_to_array($2, ' ')) AS s(first, last)
                JOIN local_photos ON \(Self.day) BETWEEN s.first AND s.last
                """,
            where: "true",
            [
                .text(joined.map(\.lowerBound).joined(separator: " ")),
                .text(joined.map(\.upperBound).joined(separator: " ")),
            ])
    }
}
