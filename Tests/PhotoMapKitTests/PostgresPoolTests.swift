// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// The pool as a busy site meets it: every connection lent, a statement that runs on, a lock held
/// elsewhere, connections dropped by the server while idle, a COMMIT whose answer never comes.
@Suite("The PostgreSQL pool: timeouts, dead connections, a COMMIT lost")
struct PostgresPoolTests {
    let database: TestDatabase

    init() throws {
        database = try TestDatabase()
    }

    func seconds(since start: Date) -> TimeInterval { Date().timeIntervalSince(start) }

    @Test("every connection lent: the next caller gets `busy` after 5 s, not a hang, and a connection once one is back")
    func exhausted() throws {
        let pool = try database.pool(size: 1)
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? pool.withConnection { _ in
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        let started = Date()
        #expect(throws: DatabaseError.busy(server: pool.address.description, seconds: 5)) {
            try pool.withConnection { _ in }
        }
        let waited = seconds(since: started)
        #expect(waited >= 4.5 && waited < 7, "\(waited) s")
        #expect(DatabaseError.busy(server: "", seconds: 5).isUnavailable)
        release.signal()
        #expect(try pool.withConnection { try $0.execute("SELECT 1").integer(0, 0) } == 1)
    }

    @Test("each connection has statement_timeout 5 s and lock_timeout 2 s unless the URL's options say otherwise")
    func timeoutSettings() throws {
        let pool = try database.pool()
        let settings = try pool.withConnection { connection in
            try ["statement_timeout", "lock_timeout", "tcp_keepalives_idle"].map {
                try connection.execute("SHOW \($0)").text(0, 0) ?? ""
            }
        }
        // The test cluster is reached by a Unix socket, where keepalives do not apply (0).
        #expect(settings.prefix(2) == ["5s", "2s"], "\(settings)")
        let custom = try PostgresPool(
            address: DatabaseAddress(database.url + "&options=-c%20statement_timeout%3D1s"))
        let started = Date()
        #expect(throws: DatabaseError.self) { try custom.withConnection { try $0.execute("SELECT pg_sleep(3)") } }
        #expect(seconds(since: started) < 2.5)
        do {
            try custom.withConnection { try $0.execute("SELECT pg_sleep(3)") }
        } catch let error as DatabaseError {
            guard case .timedOut = error else { throw error }
            #expect(error.isUnavailable && error.description.contains("statement timeout"), "\(error)")
        }
    }

    @Test(
        "TCP keepalives on every connection (after 30 s idle, every 10 s, 3 unanswered) unless the URL says otherwise")
    func keepalives() throws {
        let keywords = ["keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count"]
        let values = try database.pool().withConnection { connection in keywords.map { connection.option($0) } }
        #expect(values == ["1", "30", "10", "3"])
        let custom = try PostgresPool(address: DatabaseAddress(database.url + "&keepalives_idle=60"))
        #expect(try custom.withConnection { $0.option("keepalives_idle") } == "60")
    }

    @Test("a table locked by another connection: `timedOut` after lock_timeout, not a hang")
    func lockedTable() throws {
        let pool = try database.pool()
        let started = Date()
        let outcome: Result<Int, any Error> = try pool.transaction { holder in
            try holder.execute("LOCK TABLE recent_photos IN ACCESS EXCLUSIVE MODE")
            return Result { try PostgresRecents(pool: pool).photos().count }
        }
        let waited = seconds(since: started)
        #expect(waited >= 1.5 && waited < 4, "\(waited) s")
        #expect(throws: DatabaseError.self) { try outcome.get() }
        if case let .failure(error as DatabaseError) = outcome {
            #expect(error.isUnavailable, "\(error)")
            guard case .timedOut = error else { throw error }
        }
    }

    @Test("connections the server dropped while idle (a restart) are replaced: every read after answers")
    func droppedWhileIdle() throws {
        let pool = try database.pool(size: 4)
        let recents = PostgresRecents(pool: pool)
        // Four connections lent at once, then idle in the pool.
        let ready = DispatchGroup(), hold = DispatchSemaphore(value: 0)
        for _ in 0..<4 {
            ready.enter()
            DispatchQueue.global().async {
                _ = try? pool.withConnection { _ in
                    ready.leave()
                    hold.wait()
                }
            }
        }
        ready.wait()
        for _ in 0..<4 { hold.signal() }
        _ = try pool.withConnection { _ in }
        let admin = try TestDatabase.adminURL()
        let ended = try TestDatabase.psql(
            admin, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '\(database.name)'")
        #expect(Int(ended) ?? 0 >= 4, "\(ended)")
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            do { _ = try recents.photos() } catch { failures.withLock { $0.append("\(error)") } }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
    }

    @Test("a connection lost during COMMIT: `outcomeUnknown`, not an ordinary loss")
    func commitLost() throws {
        let pool = try database.pool()
        // A deferred trigger runs at COMMIT and ends its own session there.
        try TestDatabase.psql(
            database.url,
            """
            CREATE TABLE doomed (x integer);
            CREATE FUNCTION end_session() RETURNS trigger LANGUAGE plpgsql AS
                $$ BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); PERFORM pg_sleep(1); RETURN NULL; END $$;
            CREATE CONSTRAINT TRIGGER at_commit AFTER INSERT ON doomed DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW EXECUTE FUNCTION end_session();
            """)
        do {
            try pool.transaction { try $0.execute("INSERT INTO doomed VALUES (1)") }
            Issue.record("the COMMIT answered")
        } catch let error as DatabaseError {
            guard case .outcomeUnknown = error else { throw error }
            #expect(error.isUnavailable && error.description.contains("outcome is unknown"))
        }
    }
}
