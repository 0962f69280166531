// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// What import reads of hostile files and folders: what opening tells before reading, where the walk
/// never goes, the scans and the memory a decode may take.
@Suite("Import bounds: files opened, folders walked, decodes budgeted")
struct ImportBoundsTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    func path(_ name: String) -> [UInt8] {
        Array(folder.url.appendingPathComponent(name).path.utf8)
    }

    @Test("a file is told by its first bytes: no photo, a FIFO, an empty or a too large photo is not read")
    func opening() throws {
        // Sparse: 400 MB that take no disk, and that nothing should read.
        let notes = folder.url.appendingPathComponent("notes.txt")
        try Data("shopping list".utf8).write(to: notes)
        try FileHandle(forWritingTo: notes).truncate(atOffset: 400 << 20)
        guard case .other = PhotoFile.open(path("notes.txt"), maximumBytes: 256 << 20) else {
            Issue.record("a text file is not a photo")
            return
        }
        #expect(mkfifo(path("fifo").map { CChar(bitPattern: $0) } + [0], 0o600) == 0)
        guard case .refused("not a regular file") = PhotoFile.open(path("fifo"), maximumBytes: 1 << 20) else {
            Issue.record("a FIFO is refused without waiting for a writer")
            return
        }
        try Data().write(to: folder.url.appendingPathComponent("empty.jpg"))
        guard case .refused("empty file") = PhotoFile.open(path("empty.jpg"), maximumBytes: 1 << 20) else {
            Issue.record("an empty file is refused")
            return
        }
        let photo = try ExifJPEG.make(ExifJPEG.quarters(width: 64, height: 48), exif: nil)
        try photo.write(to: folder.url.appendingPathComponent("photo.jpg"))
        guard case .refused("larger than 0 MB") = PhotoFile.open(path("photo.jpg"), maximumBytes: photo.count - 1),
            case .photo(let file) = PhotoFile.open(path("photo.jpg"), maximumBytes: photo.count)
        else {
            Issue.record("a photo is refused only over the limit")
            return
        }
        let bytes = try file.bytes()
        #expect(file.kind == .jpeg && file.size == photo.count && bytes == photo)
    }

    @Test("no link, root or folder leads the walk into /proc, /sys or /dev; other links are followed")
    func kernelFolders() throws {
        let links = ["pagemap": "/proc/self/pagemap", "proc": "/proc", "sys": "/sys/kernel", "null": "/dev/null"]
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(
                atPath: folder.url.appendingPathComponent(name).path, withDestinationPath: target)
        }
        try Data([0xFF, 0xD8, 0xFF]).write(to: folder.url.appendingPathComponent("photo.jpg"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("again.jpg").path, withDestinationPath: "photo.jpg")
        let walked = FileWalker.walk([path(""), Array("/proc/self".utf8)])
        #expect(
            walked.files.map { FileWalker.shown($0.path) }
                == [path("again.jpg"), path("photo.jpg")].map(FileWalker.shown))
        let problems = Dictionary(
            uniqueKeysWithValues: walked.problems.map { (FileWalker.shown($0.path), $0.reason) })
        for (name, target) in links {
            let top = "/" + (target.split(separator: "/").first ?? "")
            #expect(problems[FileWalker.shown(path(name))] == "in \(top), which is not read", "\(name)")
        }
        #expect(problems["/proc/self"] == "in /proc, which is not read")
    }

    @Test("a progressive JPEG repeating its last scan stops after 500 scans, in every decode")
    func scanBomb() throws {
        let usual = try JPEGCodec.encode(ExifJPEG.quarters(width: 320, height: 240), progressive: true)
        #expect(try PhotoFileReader.read(usual, as: .jpeg).mediumSize == (320, 240))
        #expect(throws: Never.self) { try ImageDecoder.check(usual) }
        let bomb = try HostileJPEG.scanBomb(width: 160, height: 120, scans: 501)
        for decode in [
            { _ = try PhotoFileReader.read(bomb, as: .jpeg) }, { _ = try ImageDecoder.check(bomb) },
            { _ = try ImageDecoder.decode(bomb) },
        ] as [() throws -> Void] {
            #expect(throws: ImageError.tooCostly("more than 500 scans")) { try decode() }
        }
        // 500 scans are decoded: what refuses these is the repeated refinement, not their number.
        let most = try HostileJPEG.scanBomb(width: 160, height: 120, scans: 500)
        do {
            _ = try PhotoFileReader.read(most, as: .jpeg)
            Issue.record("a refinement scan repeated is refused")
        } catch {
            #expect(error as? ImageError != .tooCostly("more than 500 scans"), "\(error)")
        }
    }

    @Test("a decode needing more memory than the budget holds is refused from its header, and gives all back")
    func overBudget() throws {
        // 99.9 MP of three full-resolution components: 600 MB of coefficients, in a file of a few hundred bytes.
        let huge = try HostileJPEG.progressiveDeclaring(width: 9_990, height: 10_000)
        #expect(try PhotoFileReader.decodeMemory(of: huge, as: .jpeg) > 580 << 20)
        try huge.write(to: folder.url.appendingPathComponent("huge.jpg"))
        guard case .photo(let file) = PhotoFile.open(path("huge.jpg"), maximumBytes: 1 << 20) else {
            Issue.record("a JPEG opens")
            return
        }
        let budget = ByteBudget(capacity: 512 << 20)
        #expect(throws: ImageError.tooCostly("needs 584 MB to read and decode, over the limit of 512 MB")) {
            try PhotoFileReader.read(file, within: budget) { _ in false }
        }
        #expect(budget.free == budget.capacity)
        // Asked of the decode itself, the same limit.
        let usual = try JPEGCodec.encode(ExifJPEG.quarters(width: 320, height: 240), progressive: true)
        #expect(throws: ImageError.self) {
            try PhotoFileReader.read(usual, as: .jpeg, maximumMemory: PhotoFileReader.imagesMadeBytes + (1 << 20))
        }
    }

    @Test("a reader whose decode memory is not free gives its bytes back, waits for the whole, and reads again")
    func waitsForTheWhole() throws {
        let photo = try JPEGCodec.encode(ExifJPEG.quarters(width: 640, height: 480), progressive: true)
        try photo.write(to: folder.url.appendingPathComponent("photo.jpg"))
        let needed = photo.count + (try PhotoFileReader.decodeMemory(of: photo, as: .jpeg))
        let budget = ByteBudget(capacity: needed)
        // Held elsewhere: the file's bytes fit beside it, its decode does not.
        let elsewhere = needed - photo.count - 1
        #expect(budget.reserve(elsewhere))
        let result = Locked<ReadPhotoFile?>(nil)
        let done = DispatchSemaphore(value: 0)
        let photoPath = path("photo.jpg")
        Thread.detachNewThread {
            if case .photo(let file) = PhotoFile.open(photoPath, maximumBytes: 1 << 20) {
                let read = try? PhotoFileReader.read(file, within: budget) { _ in false }.read
                result.withLock { $0 = read }
            }
            done.signal()
        }
        while budget.waiting == 0 { Thread.sleep(forTimeInterval: 0.001) }
        #expect(budget.free == budget.capacity - elsewhere, "the reader holds nothing while it waits")
        budget.release(elsewhere)
        done.wait()
        #expect(result.withLock { $0?.mediumSize.width } == 500, "a 640×480 photo's medium image")
        #expect(budget.free == budget.capacity)
    }
}
