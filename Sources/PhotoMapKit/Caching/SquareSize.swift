/// The two square thumbnails Flickr serves: 75×75 (`_s`) and 150×150 (`_q`).
public enum SquareSize: Int, Sendable, CaseIterable {
    case small = 75
    case large = 150

    /// The matching `url_*` size.
    public var photoSize: PhotoSize { self == .small ? .square : .largeSquare }
}
