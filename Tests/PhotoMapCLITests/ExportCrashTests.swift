// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapTestSupport
import Testing

/// What a browser finds in a site: whole pages, and links that lead somewhere.
struct SiteCheck {
    let root: String

    /// Every page of the site (hidden temporary files are not pages).
    var pages: [String] {
        (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".html") && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
    }

    /// Pages that are not whole: a page starts with its doctype and ends with `</html>`.
    func brokenPages() -> [String] {
        pages.filter { page in
            guard let html = try? String(contentsOfFile: root + "/" + page, encoding: .utf8) else { return true }
            return !html.hasPrefix("<!DOCTYPE html>") || !html.hasSuffix("</html>\n")
        }
    }

    /// The pages a visitor reaches from index.html.
    func reachablePages() -> [String] {
        var seen: Set<String> = [], queue = ["index.html"]
        while let page = queue.popLast() {
            guard !seen.contains(page), FileManager.default.fileExists(atPath: root + "/" + page) else { continue }
            seen.insert(page)
            queue += links(of: page).filter { $0.hasSuffix(".html") }
        }
        return Array(seen)
    }

    /// Links of `pages` (href, src, and the map data's links and squares) whose file is missing.
    func danglingLinks(in pages: [String]) -> [String] {
        pages.flatMap { page in
            links(of: page).filter { !FileManager.default.fileExists(atPath: root + "/" + $0) }.map {
                "\(page) → \($0)"
            }
        }
    }

    /// The site paths a page links to.
    func links(of page: String) -> [String] {
        guard let html = try? String(contentsOfFile: root + "/" + page, encoding: .utf8) else { return [] }
        let pattern = #"(?:href|src)="([^"]*)"|"(?:link|thumbnail|placeholder)":"([^"]*)""#
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let folder = URL(fileURLWithPath: "/" + page).deletingLastPathComponent()
        return expression.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap { match in
            let range = [1, 2].map { match.range(at: $0) }.first { $0.location != NSNotFound }
            guard let range, let swiftRange = Range(range, in: html) else { return nil }
            let link = html[swiftRange].replacingOccurrences(of: "\\/", with: "/").replacingOccurrences(
                of: "&amp;", with: "&")
            guard !link.contains("://"), !link.hasPrefix("#"), !link.hasPrefix("data:"), !link.isEmpty,
                let decoded = link.removingPercentEncoding
            else { return nil }
            return String(folder.appendingPathComponent(decoded).standardized.path.dropFirst())
        }
    }

    /// Hidden temporary files left in the site.
    func temporaryFiles() -> [String] {
        (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
            .filter { $0.split(separator: "/").last?.hasPrefix(".tmp-") == true }
    }
}

extension EditableCatalog {
    /// Gives every photo of the catalog a title of this `round`: every photo page and list changes.
    func retitleEveryPhoto(round: Int) throws {
        let enumerator = FileManager.default.enumerator(atPath: folder.appendingPathComponent("photos").path)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".json") else { continue }
            let page = folder.appendingPathComponent("photos/" + path)
            var answer = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: page)) as? [String: Any])
            var photos = try #require(answer["photos"] as? [String: Any])
            let list = try #require(photos["photo"] as? [[String: Any]])
            photos["photo"] = list.map { photo in
                var photo = photo
                photo["title"] = "Photo \(photo["id"] ?? "") of round \(round)"
                return photo
            }
            answer["photos"] = photos
            try JSONSerialization.data(withJSONObject: answer).write(to: page)
        }
    }
}

@Suite("export stopped at any moment, or by a full disk, end to end")
struct ExportCrashTests {
    let work: TemporaryFolder
    let catalog: EditableCatalog

    init() throws {
        work = try TemporaryFolder()
        catalog = try EditableCatalog(in: work.url)
    }

    var environment: [String: String] {
        ["PHOTOMAP_FIXTURES": catalog.folder.path, "PHOTOMAP_CACHE": work.url.appendingPathComponent("cache").path]
    }

    func arguments(_ site: String) -> [String] { ["export", "--out", site, "--places", "6", "--limit", "40"] }

    /// Starts photomap (through `shell` when given: a bash line that ends by exec'ing "$0" "$@").
    func launch(_ arguments: [String], shell: String? = nil, errors: Pipe? = nil) throws -> Process {
        let process = Process()
        if let shell {
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", shell, PhotomapBinary.url.path] + arguments
        } else {
            process.executableURL = PhotomapBinary.url
            process.arguments = arguments
        }
        process.environment = PhotomapBinary.environment(environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Every page whole; every link of the pages a visitor reaches (or of all pages) resolves.
    func expectConsistent(_ site: String, allPages: Bool, _ comment: String) {
        let check = SiteCheck(root: site)
        #expect(check.brokenPages().isEmpty, "\(comment): \(check.brokenPages())")
        let dangling = check.danglingLinks(in: allPages ? check.pages : check.reachablePages())
        #expect(dangling.isEmpty, "\(comment): \(dangling.prefix(5))")
    }

    @Test(
        "killed (SIGKILL) at ten random moments, an export leaves whole pages whose links resolve, and a rerun completes"
    )
    func killedTenTimes() throws {
        let site = work.url.appendingPathComponent("site").path
        #expect(try PhotomapBinary.run(arguments(site), environment: environment).status == 0)
        // How long an export that rewrites every page takes: the kills fall within it.
        try catalog.retitleEveryPhoto(round: -1)
        let start = Date()
        #expect(try PhotomapBinary.run(arguments(site), environment: environment).status == 0)
        let duration = max(Date().timeIntervalSince(start), 0.2)
        for round in 0..<10 {
            try catalog.retitleEveryPhoto(round: round)
            // One round starts from nothing: an export killed before it ever finished.
            if round == 5 { try FileManager.default.removeItem(atPath: site) }
            let export = try launch(arguments(site))
            let moment = Double.random(in: 0.02...duration)
            usleep(UInt32(moment * 1e6))
            kill(export.processIdentifier, SIGKILL)
            export.waitUntilExit()
            expectConsistent(site, allPages: false, "round \(round), killed after \(moment) s")
            // Every other kill is followed by a complete run; the others by the next kill.
            if round % 2 == 1 {
                let rerun = try PhotomapBinary.run(arguments(site), environment: environment)
                #expect(rerun.status == 0, "\(rerun.stderr)")
                expectConsistent(site, allPages: true, "round \(round), rerun")
                #expect(SiteCheck(root: site).temporaryFiles().isEmpty)
            }
        }
        let last = try PhotomapBinary.run(arguments(site), environment: environment)
        #expect(last.status == 0, "\(last.stderr)")
        expectConsistent(site, allPages: true, "the last run")
        #expect(SiteCheck(root: site).temporaryFiles().isEmpty)
        let place = try catalog.firstPlace()
        #expect(try String(contentsOfFile: "\(site)/places/\(place).html", encoding: .utf8).contains("of round 9"))
        let again = try PhotomapBinary.run(arguments(site), environment: environment)
        #expect(
            again.stderr.contains(" 0 files written") && again.stderr.contains("; 0 pages rendered\n"),
            "\(again.stderr)")
    }

    @Test(
        "a write refused midway (files limited to 12 KB, as a full disk refuses them) is a clear error; the site stays whole"
    )
    func writeRefused() throws {
        let site = work.url.appendingPathComponent("site").path
        #expect(try PhotomapBinary.run(arguments(site), environment: environment).status == 0)
        try catalog.retitleEveryPhoto(round: 1)
        // Photo pages fit in 12 KB, the place pages do not: the export stops at the first of them.
        let errors = Pipe()
        let export = try launch(
            arguments(site), shell: "trap '' XFSZ; ulimit -f 12; exec \"$0\" \"$@\"",
            errors: errors)
        export.waitUntilExit(within: 300, "export with files limited to 12 KB")
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(export.terminationStatus == 1)
        #expect(
            message.hasPrefix("photomap: error: cannot write \(site)/places/")
                && message.hasSuffix(": File too large\n"), "\(message)")
        expectConsistent(site, allPages: true, "after the refused write")
        #expect(SiteCheck(root: site).temporaryFiles().isEmpty)
        let rerun = try PhotomapBinary.run(arguments(site), environment: environment)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        expectConsistent(site, allPages: true, "the rerun")
        #expect(
            try String(contentsOfFile: "\(site)/places/\(try catalog.firstPlace()).html", encoding: .utf8).contains(
                "of round 1"))
    }

    @Test(
        "a full disk (ENOSPC on a tiny tmpfs) is reported as such; the site stays whole, and completes once there is room",
        .enabled(if: TinyDisk.canMount, "needs root to mount a tmpfs"))
    func diskFull() throws {
        let disk = try TinyDisk(kilobytes: 1024)
        let site = disk.url.appendingPathComponent("site").path
        let full = try PhotomapBinary.run(arguments(site), environment: environment)
        #expect(full.status == 1)
        // After the prefetch's report, the error.
        let error = full.stderr.split(separator: "\n").last ?? ""
        #expect(
            error.hasPrefix("photomap: error: the disk holding the site is full (writing \(site)/"),
            "\(full.stderr)")
        #expect(
            error.hasSuffix("; free some space and export again: pages not yet rewritten are still the previous ones"))
        expectConsistent(site, allPages: false, "on the full disk")
        #expect(SiteCheck(root: site).temporaryFiles().isEmpty)
        try disk.resize(kilobytes: 64 << 10)
        let rerun = try PhotomapBinary.run(arguments(site), environment: environment)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        expectConsistent(site, allPages: true, "once there is room")
    }
}
