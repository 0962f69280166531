// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Sizes as people type them: "200MB", "500KB", "1.5GB", "4096" (bytes); K, M and G count in 1,024s.
enum ByteSize {
    static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let (kilo, mega, giga) = (1024.0, 1024.0 * 1024, 1024.0 * 1024 * 1024)
        let units: [(String, Double)] = [
            ("GIB", giga), ("MIB", mega), ("KIB", kilo), ("GB", giga), ("MB", mega),
            ("KB", kilo), ("G", giga), ("M", mega), ("K", kilo), ("B", 1),
        ]
        let (number, scale) =
            units.first { trimmed.hasSuffix($0.0) }
            .map { (String(trimmed.dropLast($0.0.count)).trimmingCharacters(in: .whitespaces), $0.1) } ?? (trimmed, 1)
        guard let value = Double(number), value.isFinite, value >= 0,
            value * scale < Double(Int.max / 2)
        else { return nil }
        return Int(value * scale)
    }

    /// "1.5 MB" for people reading a report.
    static func format(_ bytes: Int) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f %@", value, units[unit])
    }
}
