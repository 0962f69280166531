// SPDX-License-Identifier: Apache-2.0
extension MapGridSQL {
    /// PostgreSQL's tables, functions and triggers (a migration of `DatabaseSchema`): the same tables as
    /// SQLite's, ids compared byte by byte (`COLLATE "C"`) as SQLite compares them, the photos there
    /// before counted into the cells and totals at once, and the triggers made after.
    static var postgres: String {
        let spread = MapTile.spreadSteps.map { step in
            """
                x := (x | (x << \(step.shift))) & \(step.mask);
                y := (y | (y << \(step.shift))) & \(step.mask);
            """
        }.joined(separator: "\n")
        func audience(_ row: String) -> String {
            MapAudience.sql(location: "\(row)location_audience", hidden: "\(row)hidden")
        }
        return """
            -- The map of everything (MapGridSQL): the located photos with who sees them (MapAudience), and per
            -- cell level, cell, month and audience their count, sums of coordinates and least id with its
            -- coordinate, and the low levels' totals over every month (MapGridSQL+Totals), kept by the triggers
            -- below.
            CREATE TABLE map_points (id text COLLATE "C" PRIMARY KEY, key bigint NOT NULL, month integer NOT NULL,
                latitude double precision NOT NULL, longitude double precision NOT NULL, audience smallint NOT NULL);
            CREATE INDEX map_points_key ON map_points (key) INCLUDE (id, month, latitude, longitude, audience);
            CREATE INDEX map_points_month ON map_points (audience, month, key, id);
            CREATE TABLE map_cells (level smallint NOT NULL, cell bigint NOT NULL, month integer NOT NULL,
                audience smallint NOT NULL, count integer NOT NULL, sum_latitude bigint NOT NULL,
                sum_longitude bigint NOT NULL, photo text COLLATE "C" NOT NULL, latitude double precision NOT NULL,
                longitude double precision NOT NULL,
                PRIMARY KEY (level, audience, cell, month) \(covering(["count", "sum_latitude", "sum_longitude"])));
            CREATE OR REPLACE FUNCTION map_key(latitude double precision, longitude double precision) RETURNS bigint
            LANGUAGE plpgsql IMMUTABLE AS $$
            DECLARE x bigint; y bigint;
            BEGIN
                x := \(gridX("longitude", least: "least", greatest: "greatest"));
                y := \(gridY("latitude", least: "least", greatest: "greatest"));
            \(spread)
                RETURN x | (y << 1);
            END $$;
            CREATE OR REPLACE FUNCTION map_month(record bytea) RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $$
            DECLARE taken text := convert_from(record, 'UTF8')::jsonb ->> 'dateTaken';
            BEGIN
                IF taken ~ '^[0-9]{4}-(0[1-9]|1[0-2])' AND left(taken, 4) <> '0000' THEN
                    RETURN left(taken, 4)::integer * 12 + substr(taken, 6, 2)::integer - 1;
                END IF;
                RETURN -1;
            END $$;
            INSERT INTO map_points SELECT id, map_key(latitude, longitude), map_month(record), latitude, longitude,
                \(audience("")) FROM local_photos WHERE latitude IS NOT NULL AND longitude IS NOT NULL;
            \(cellsFromPoints(postgres: true))
            \(postgresTotals)
            CREATE OR REPLACE FUNCTION map_photo_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'UPDATE' AND OLD.latitude IS NOT DISTINCT FROM NEW.latitude
                    AND OLD.longitude IS NOT DISTINCT FROM NEW.longitude AND OLD.hidden = NEW.hidden
                    AND OLD.record = NEW.record AND OLD.location_audience = NEW.location_audience THEN
                    RETURN NULL;
                END IF;
                IF TG_OP <> 'INSERT' THEN DELETE FROM map_points WHERE id = OLD.id; END IF;
                IF TG_OP <> 'DELETE' AND NEW.latitude IS NOT NULL AND NEW.longitude IS NOT NULL THEN
                    INSERT INTO map_points VALUES (NEW.id, map_key(NEW.latitude, NEW.longitude), map_month(NEW.record),
                        NEW.latitude, NEW.longitude, \(audience("NEW.")));
                END IF;
                RETURN NULL;
            END $$;
            CREATE TRIGGER map_photo_changed AFTER INSERT OR UPDATE OR DELETE ON local_photos
                FOR EACH ROW EXECUTE FUNCTION map_photo_changed();
            CREATE TRIGGER map_point_added AFTER INSERT ON map_points
                FOR EACH ROW EXECUTE FUNCTION map_point_added();
            CREATE TRIGGER map_point_removed AFTER DELETE ON map_points
                FOR EACH ROW EXECUTE FUNCTION map_point_removed();
            """
    }

    /// The columns a tile reads of the cells or totals after their key, with `extra`, in their key's index
    /// (PostgreSQL's INCLUDE): a tile is then an index-only scan of one range of it, where rows fetched from
    /// the table lie where each was first written, a page each when it is not in memory (a cold zoom-6 tile
    /// read some 10,000 rows: p50 68 ms, p95 740 at 1M, caches dropped, against 1–3 ms warm).
    static func covering(_ extra: [String]) -> String {
        "INCLUDE (\((extra + ["photo", "latitude", "longitude"]).joined(separator: ", ")))"
    }

    /// The migration that makes the map as it is now over a map made before (every audience, sums in
    /// `units`, totals, the least photo's coordinate kept): its tables made again (migration 8, `postgres`,
    /// makes them so on a database migrated after it), counted at once from the photos there, and the
    /// triggers as `postgresBatches` leaves them.
    static var postgresMadeAgain: String {
        """
        DROP TRIGGER map_photo_changed ON local_photos;
        DROP TABLE map_points, map_cells;
        \(postgres)
        \(postgresBatches)
        """
    }
}
