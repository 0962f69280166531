// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Gives trips the GPX track lines recorded on their days. A line's day is the local date its first point
/// was recorded on, the local time taken as the UTC time moved by the line's longitude (an hour for each
/// 15°, rounded): a GPX file's times are UTC and say nothing of the zone. Each line goes whole to the trip
/// whose days hold that date (the drive before the first photo included); a line of no trip's days, or
/// kept before track times were (no start), goes to none.
public enum TripRoutes {
    /// `trips` with their `tracks` set from `lines`.
    public static func attach(_ lines: TrackLines, to trips: [Trip]) -> [Trip] {
        guard !lines.isEmpty, !trips.isEmpty else { return trips }
        var trips = trips
        for (line, start) in zip(lines.lines, lines.starts) {
            guard let start, let first = line.first else { continue }
            let date = localDate(start, longitude: first.longitude)
            guard let index = trips.firstIndex(where: { $0.from <= date && date <= $0.to }) else { continue }
            trips[index].tracks.append(TripTrack(date: date, line: line))
        }
        return trips
    }

    /// "YYYY-MM-DD" of `seconds` since 1970 (UTC) at the solar offset of `longitude`.
    static func localDate(_ seconds: Double, longitude: Double) -> String {
        let offset = (longitude / 15).rounded() * 3600
        let days = Int(((seconds + offset) / 86_400).rounded(.down))
        // Howard Hinnant's civil_from_days, the inverse of `CivilDate.daysSince1970`.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return String(format: "%04d-%02d-%02d", year, month, day)
    }
}
