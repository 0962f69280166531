// SPDX-License-Identifier: Apache-2.0
import Foundation

/// When the camera's clock says a photo was taken, kept as the camera wrote it so that another zone or
/// clock offset can be applied later: DateTimeOriginal, its SubSecTimeOriginal and its
/// OffsetTimeOriginal (exiftool's SubSecDateTimeOriginal).
public struct PhotoClock: Sendable, Equatable {
    /// DateTimeOriginal as "YYYY-MM-DD HH:MM:SS" (as `dateTaken`), the camera's local time.
    public var local: String
    /// SubSecTimeOriginal's digits ("25" is a quarter second), if any.
    public var subSecond: String?
    /// OffsetTimeOriginal in seconds east of UTC, if the camera wrote it.
    public var utcOffsetSeconds: Int?

    /// A clock reading; nil unless `local` is "YYYY-MM-DD HH:MM:SS".
    public init?(local: String, subSecond: String?, utcOffsetSeconds: Int?) {
        guard Self.parts(of: local) != nil else { return nil }
        self.local = local
        self.subSecond = subSecond.flatMap { $0.isEmpty || !$0.allSatisfy(\.isASCIIDigit) ? nil : $0 }
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The moment in seconds since 1970 (UTC): in the photo's own offset, else in `zone` with its rules
    /// for that date (summer time included), plus `clockOffset` seconds (exiftool's `-geosync`).
    public func instant(zone: TimeZone, clockOffset: Double = 0) -> Double? {
        guard let (days, seconds) = Self.parts(of: local) else { return nil }
        let asIfUTC = Double(days * 86_400 + seconds)
        let fraction = subSecond.flatMap { Double("0." + $0) } ?? 0
        let offset: Int
        if let utcOffsetSeconds {
            offset = utcOffsetSeconds
        } else {
            // The offset at the moment itself: first guessed from the wall time read as UTC, then again
            // at the instant that guess gives (the two differ only next to a change of summer time).
            let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: asIfUTC))
            offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: asIfUTC - Double(guess)))
        }
        return asIfUTC - Double(offset) + fraction + clockOffset
    }

    /// A zone as `--timezone` takes it: "±HH:MM" or an IANA name ("Europe/Ljubljana"); nil otherwise.
    public static func zone(named text: String) -> TimeZone? {
        if text.first == "+" || text.first == "-" {
            return ExifReader.offsetSeconds(text).flatMap { TimeZone(secondsFromGMT: $0) }
        }
        return TimeZone(identifier: text)
    }

    /// Days since 1970 and seconds into the day of "YYYY-MM-DD HH:MM:SS".
    private static func parts(of local: String) -> (days: Int, seconds: Int)? {
        let fields = local.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).map { Int($0) }
        guard local.utf8.count == 19, fields.count == 6, let year = fields[0], let month = fields[1],
            let day = fields[2], let hour = fields[3], let minute = fields[4], let second = fields[5],
            hour < 24, minute < 60, second <= 60,
            let days = CivilDate.daysSince1970(year: year, month: month, day: day)
        else { return nil }
        return (days, hour * 3600 + minute * 60 + second)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
