// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("Page assets: every script in the assets folder is one the pages load")
struct PageAssetsTests {
    @Test("the pages load every page script beside them, each once, photomap.js last")
    func everyScriptIsLoaded() throws {
        let folder = LoopbackServer.repositoryRoot.appendingPathComponent("Sources/PhotoMapKit/Pages/Assets")
        let scripts = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".js") && $0 != "first-view.js" }  // first-view.js runs in the head
        #expect(Set(PageAssets.scripts) == Set(scripts))
        #expect(PageAssets.scripts.count == Set(PageAssets.scripts).count)
        #expect(PageAssets.scripts.first == "photomap-page.js" && PageAssets.scripts.last == "photomap.js")
    }
}
