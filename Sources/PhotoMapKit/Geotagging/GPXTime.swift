// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A GPX `<time>` (xsd:dateTime, "2024-07-12T08:15:30Z" or with a fraction or an offset) in seconds since
/// 1970; a time without a zone is UTC, as GPX means and exiftool reads it.
enum GPXTime {
    /// The instant, or nil unless the text is a date and time with every part in range.
    static func seconds(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        var at = 0
        func number(_ digits: Int) -> Int? {
            guard at + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[at..<(at + digits)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            at += digits
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
            expect(0x54), let hour = number(2), expect(0x3A), let minute = number(2), expect(0x3A),
            let second = number(2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second <= 60
        else { return nil }
        var fraction = 0.0
        if expect(0x2E) {
            let start = at
            while at < bytes.count, (0x30...0x39).contains(bytes[at]) { at += 1 }
            guard at > start, let value = Double("0." + String(decoding: bytes[start..<at], as: UTF8.self)) else {
                return nil
            }
            fraction = value
        }
        var offset = 0
        if expect(0x5A) {
            offset = 0
        } else if at < bytes.count, bytes[at] == 0x2B || bytes[at] == 0x2D {
            let sign = bytes[at] == 0x2D ? -1 : 1
            at += 1
            guard let hours = number(2), expect(0x3A), let minutes = number(2), hours <= 14, minutes < 60 else {
                return nil
            }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard at == bytes.count else { return nil }
        guard let days = CivilDate.daysSince1970(year: year, month: month, day: day) else { return nil }
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }
}

/// Dates of the proleptic Gregorian calendar as days since 1970-01-01, without a calendar object.
enum CivilDate {
    /// Days since 1970-01-01 of a date, or nil for a day its month does not have.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int? {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), (1...lengths[month - 1]).contains(day) else { return nil }
        // Howard Hinnant's days_from_civil: years start in March so the leap day comes last.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
