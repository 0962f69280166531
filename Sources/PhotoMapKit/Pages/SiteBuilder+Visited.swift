// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

extension SiteBuilder {
    /// Writes the page of the places you have been (`visited`, as the site's viewer sees them) at the
    /// links' `visitedIndex`, outlined by `outlines`, each place's cover from `shown` (placed first), a
    /// town linking its page when the site has it (`placePages`, the ids of those written), going back to
    /// `back`; and before it, each country's and region's page of its photos among `shown`, the newest
    /// `limit` of them (as a place page holds), with the pages of those photos the site has not written yet.
    public func writeVisited(
        _ visited: [VisitedPlace], outlines: VisitedOutlines?, shown: [String: AnnotatedPhoto],
        placePages: Set<String>, limit: Int, back: (path: String, label: String)?
    ) throws {
        let index = links.visitedIndex
        for country in visited {
            for (place, inCountry) in [(country, nil)] + country.children.map({ ($0, Optional(country.name)) }) {
                guard let id = place.pageID else { continue }
                let photos = place.photoIDs.compactMap { shown[$0] }
                try placeImages(of: photos.prefix(limit).map(\.record))
                try writePhotosPage(
                    at: links.visitedPage(id), title: place.name,
                    subtitle: PageSubtitle.photos(
                        shown: min(photos.count, limit), total: photos.count,
                        detail: PageBuilder<FolderLinks>.visitedDetail(of: place, country: inCountry)),
                    photos: Array(photos.prefix(limit)), back: (index, "Places visited"), defaultView: "map")
            }
        }
        func covers(_ places: [VisitedPlace]) -> [Photo] {
            places.flatMap { place in (shown[place.cover.id].map { [$0.record] } ?? []) + covers(place.children) }
        }
        try placeImages(of: covers(visited))
        try writer.write(
            try pages.visitedPage(
                visited, outlines: outlines, shown: shown, at: index, back: back, hasPage: placePages.contains),
            to: index)
    }
}
