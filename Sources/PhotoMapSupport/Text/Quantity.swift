// SPDX-License-Identifier: Apache-2.0
/// A number of things in words, as pages and their subtitles say it.
public enum Quantity {
    /// "1 photo", "2 photos", "0 photos": `one` for exactly one, `many` for any other count.
    public static func words(_ count: Int, _ one: String, _ many: String) -> String {
        "\(count) \(count == 1 ? one : many)"
    }

    /// "1,942 photos": `words` with the thousands grouped, for a summary line.
    public static func groupedWords(_ count: Int, _ one: String, _ many: String) -> String {
        "\(grouped(count)) \(count == 1 ? one : many)"
    }

    /// "1,942": digits grouped by threes.
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = number < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return result
    }
}
