import Foundation

extension SiteBuilder {
    /// Where a site's page of the places you have been is.
    public static let visitedPath = "visited.html"

    /// Writes the page of the places you have been (`visited`, as the site's viewer sees them) at
    /// `visitedPath`, outlined by `outlines`, each place's cover from `shown` (placed first), a town
    /// linking its page when the site has it (`placePages`, the ids of those written), going back to `back`.
    public func writeVisited(
        _ visited: [VisitedPlace], outlines: VisitedOutlines?, shown: [String: AnnotatedPhoto],
        placePages: Set<String>, back: (path: String, label: String)?
    ) throws {
        func covers(_ places: [VisitedPlace]) -> [Photo] {
            places.flatMap { place in (shown[place.cover.id].map { [$0.record] } ?? []) + covers(place.children) }
        }
        try placeImages(of: covers(visited))
        try writer.write(
            try pages.visitedPage(
                visited, outlines: outlines, shown: shown, at: Self.visitedPath, back: back,
                hasPage: placePages.contains),
            to: Self.visitedPath)
    }
}
