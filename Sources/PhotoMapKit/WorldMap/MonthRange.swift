// SPDX-License-Identifier: Apache-2.0
/// The months a map's tiles count (`?from=YYYY-MM&to=YYYY-MM`, each end optional, both included), as
/// `MonthTaken` numbers them. Photos without a date are in no range; no range is every photo.
public struct MonthRange: Sendable, Hashable {
    public var from: Int?
    public var to: Int?

    /// Every photo, dated or not.
    public static let all = MonthRange(ends: nil, nil)

    /// The range; nil when `from` is after `to`.
    public init?(from: Int?, to: Int?) {
        if let from, let to, from > to { return nil }
        self.init(ends: from, to)
    }

    private init(ends from: Int?, _ to: Int?) {
        self.from = from
        self.to = to
    }

    /// Whether any end is given: then only dated photos count.
    var isLimited: Bool { from != nil || to != nil }

    /// The months as numbers for SQL: the range's own ends, or the widest; nil for every photo.
    var bounds: (lower: Int, upper: Int)? {
        isLimited ? (from ?? 0, to ?? Int(Int32.max)) : nil
    }

    /// Whether a photo taken in `month` (-1 for none) counts.
    func contains(_ month: Int) -> Bool {
        guard let bounds else { return true }
        return month >= bounds.lower && month <= bounds.upper
    }

    /// `YYYY-MM` as a month number, or nil when it is not exactly that (a month 01–12, a year from 0001).
    public static func month(_ text: String) -> Int? {
        guard text.utf8.count == 7 else { return nil }
        return MonthTaken.index(text)
    }

    /// A month number as `YYYY-MM`.
    static func text(_ month: Int) -> String {
        let year = String(month / 12), number = String(month % 12 + 1)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year
            + "-" + (number.count == 1 ? "0" : "") + number
    }
}
