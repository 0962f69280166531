// SPDX-License-Identifier: Apache-2.0
/// The month a photo was taken, as the pages' timeline counts it: `year × 12 + month − 1` (March 2010 is
/// 24122), so that a range of months is a range of whole numbers and the page needs no date parsing.
enum MonthTaken {
    /// The month of a date taken as Flickr and the catalogs give it ("2010-03-14 12:00:00", or at least
    /// "2010-03"); nil when there is none or it does not start with a year and a month.
    static func index(_ dateTaken: String?) -> Int? {
        guard let bytes = dateTaken?.utf8.prefix(7), bytes.count == 7 else { return nil }
        var year = 0, month = 0
        for (offset, byte) in bytes.enumerated() {
            if offset == 4 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int(byte - UInt8(ascii: "0"))
            if offset < 4 { year = year * 10 + digit } else { month = month * 10 + digit }
        }
        guard (1...12).contains(month), year > 0 else { return nil }
        return year * 12 + month - 1
    }

    /// Past this many months from the first photo's to the last's, the timeline steps by year.
    static let mostMonthlySteps = 72

    /// The timeline's step for photos taken in `months`: 1 (a month), or 12 (a year) over a long span.
    static func step(_ months: some Sequence<Int?>) -> Int {
        var first = Int.max, last = Int.min
        for month in months {
            guard let month else { continue }
            first = min(first, month)
            last = max(last, month)
        }
        return first <= last && last - first + 1 > mostMonthlySteps ? 12 : 1
    }

    /// The first month of the step holding `month`.
    static func stepStart(_ month: Int?, step: Int) -> Int? {
        month.map { $0 - $0 % step }
    }

    /// How many of `months` fall in each month, as the pages read it: `[month, count, month, count, …]`
    /// in month order, the months nobody has left out.
    static func histogram(_ months: some Sequence<Int?>) -> [Int] {
        var counts: [Int: Int] = [:]
        for month in months { if let month { counts[month, default: 0] += 1 } }
        return counts.keys.sorted().flatMap { [$0, counts[$0] ?? 0] }
    }
}
