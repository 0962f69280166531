import Foundation

/// The pages on flickr.com a listed record links back to, as Flickr's rules ask of applications
/// that show its photos (misc.urls: photo pages are built from the owner's NSID and the photo id).
public enum FlickrPage {
    /// `https://www.flickr.com/photos/{owner-nsid}/{photo-id}`, or nil when either is missing.
    public static func photo(_ photo: Photo) -> String? {
        guard !photo.owner.isEmpty, !photo.id.isEmpty,
              let owner = photo.owner.addingPercentEncoding(withAllowedCharacters: segment),
              let id = photo.id.addingPercentEncoding(withAllowedCharacters: segment)
        else { return nil }
        return "https://www.flickr.com/photos/\(owner)/\(id)"
    }

    /// What one path segment may hold unencoded: a hostile id cannot add a segment.
    private static let segment = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))

    /// `https://www.flickr.com/places{place_url}`, or nil when Flickr sent no place_url.
    public static func place(_ place: Place) -> String? {
        guard !place.url.isEmpty, let path = place.url.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else { return nil }
        return HTML.webURL("https://www.flickr.com/places" + path)
    }
}
