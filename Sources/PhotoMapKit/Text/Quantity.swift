/// A number of things in words, as pages and their subtitles say it.
public enum Quantity {
    /// "1 photo", "2 photos", "0 photos": `one` for exactly one, `many` for any other count.
    public static func words(_ count: Int, _ one: String, _ many: String) -> String {
        "\(count) \(count == 1 ? one : many)"
    }
}
