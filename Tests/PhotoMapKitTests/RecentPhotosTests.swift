// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport
import Testing

@testable import PhotoMapKit

@Suite("RecentPhotos: the recently viewed photos of a cache folder")
struct RecentPhotosTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recents-\(UUID().uuidString)")

    private func photo(_ index: Int) -> Photo {
        Photo(id: "\(index)", title: "Photo \(index)", coordinate: Coordinate(latitude: 46.5, longitude: 6.6))
    }

    @Test("none before any view, and reading creates nothing")
    func empty() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try RecentPhotos(cacheDirectory: folder).photos().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test("most recent first, a photo viewed again moved to the front once, the whole photo kept")
    func order() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let recents = RecentPhotos(cacheDirectory: folder)
        for index in [1, 2, 3, 2] { try recents.viewed(photo(index)) }
        let photos = try RecentPhotos(cacheDirectory: folder).photos()
        #expect(photos.map(\.id) == ["2", "3", "1"])
        #expect(photos.first == photo(2))
    }

    @Test("at most `capacity` are kept, the oldest dropped")
    func capacity() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let recents = RecentPhotos(cacheDirectory: folder)
        let viewed = RecentPhotos.capacity + 5
        for index in 0..<viewed { try recents.viewed(photo(index)) }
        #expect(try recents.photos().map(\.id) == (5..<viewed).reversed().map(String.init))
    }

    @Test("a damaged file reads as no recents, and the next view starts it again")
    func damaged() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let recents = RecentPhotos(cacheDirectory: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("[{\"id\": ".utf8).write(to: recents.file)
        #expect(try recents.photos().isEmpty)
        try recents.viewed(photo(7))
        #expect(try recents.photos().map(\.id) == ["7"])
    }

    @Test("processes sharing the folder lose none of each other's views")
    func shared() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let failures = Locked<[String]>([])
        let done = DispatchGroup()
        for thread in 0..<8 {
            done.enter()
            Thread.detachNewThread {
                // A store of its own per thread, as each server process has.
                let recents = RecentPhotos(cacheDirectory: folder)
                for index in 0..<5 {
                    do { try recents.viewed(photo(thread * 5 + index)) } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
                done.leave()
            }
        }
        done.wait()
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(Set(try RecentPhotos(cacheDirectory: folder).photos().map(\.id)) == Set((0..<40).map(String.init)))
    }

    @Test("a cache folder that is a file: reading and writing fail naming the recents file")
    func failures() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder)
        let recents = RecentPhotos(cacheDirectory: folder)
        #expect(throws: RecentsError.unreadable(path: recents.file.path, reason: String(cString: strerror(ENOTDIR)))) {
            try recents.photos()
        }
        let error = #expect(throws: RecentsError.self) { try recents.viewed(photo(1)) }
        guard case let .unwritable(path, _) = error else {
            Issue.record("expected unwritable, got \(String(describing: error))")
            return
        }
        #expect(path == recents.file.path)
    }
}
