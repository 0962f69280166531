// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import PhotoMapKit

/// The pages of a country's and a region's photos: their ids, found again in the tree, and the photos
/// each holds, the newest first.
@Suite("Visited pages")
struct VisitedPageTests {
    @Test("An id is the names in plain letters and a digest: stable, safe as a path, apart for each name")
    func ids() {
        let tuscany = VisitedPlace.pageID(["Italy", "Tuscany"])
        #expect(tuscany.hasPrefix("italy-tuscany-") && tuscany.count == "italy-tuscany-".count + 10)
        #expect(VisitedPlace.pageID(["Italy", "Tuscany"]) == tuscany)
        let ids = [
            ["Italy"], ["Italy", "Tuscany"], ["Italy Tuscany"], ["Italy-Tuscany"], ["Germany", "Baden"],
            ["Germany", "Båden"], ["日本"], ["中国"], ["Côte d'Ivoire", "Lagunes"], [String(repeating: "Ä", count: 200)],
            ["../..", "a/b"],
        ].map(VisitedPlace.pageID)
        #expect(Set(ids).count == ids.count, "\(ids)")
        #expect(ids.allSatisfy(VisitedPlace.isPageID), "\(ids)")
        #expect(VisitedPlace.pageID(["Germany", "Båden"]).hasPrefix("germany-baden-"))
        #expect(VisitedPlace.pageID(["Côte d'Ivoire", "Lagunes"]).hasPrefix("cote-d-ivoire-lagunes-"))
        #expect(VisitedPlace.pageID(["日本"]).count == 10)
        for hostile in ["", "../etc", "..%2F..", "italy/tuscany", "Italy-0123456789", "a\u{0}bcdefghijk"] {
            #expect(!VisitedPlace.isPageID(hostile), "\(hostile)")
        }
        #expect(!VisitedPlace.isPageID(String(repeating: "a", count: 61)))
    }

    @Test("Countries and regions have pages of their photos, the newest first; towns have their places'")
    func pages() throws {
        let tree = VisitedPlace.tree(VisitedOutlinesTests.photos)
        let italy = try #require(tree.first)
        #expect(italy.pageID == VisitedPlace.pageID(["Italy"]))
        // Two taken at once: the lesser id first, as a place page lists them.
        #expect(italy.photoIDs == ["a", "c", "b"])
        let tuscany = try #require(italy.children.first)
        #expect(tuscany.pageID == VisitedPlace.pageID(["Italy", "Tuscany"]) && tuscany.photoIDs == ["a", "c", "b"])
        #expect(tuscany.children.allSatisfy { $0.pageID == nil && $0.photoIDs.isEmpty })
        let found = try #require(VisitedPlace.page(VisitedPlace.pageID(["Slovenia", "Ljubljana"]), in: tree))
        #expect(found.place.name == "Ljubljana" && found.country == "Slovenia" && found.place.photoIDs == ["d"])
        #expect(VisitedPlace.page(VisitedPlace.pageID(["Italy"]), in: tree)?.country == nil)
        #expect(VisitedPlace.page(VisitedPlace.pageID(["Austria"]), in: tree) == nil)
    }
}
