// SPDX-License-Identifier: Apache-2.0

/// Which tiles of a zoom of the map of everything exist, told without naming each tile: the page then
/// asks only for tile files that are there (a missing script from `file://` is a failed load, and a list
/// of names would grow the page with the tiles). A tile is numbered y·2^zoom + x. The zooms up to
/// `pageZooms` are bitmaps in the page itself (at most 1,365 bits in all, whatever the catalog); each
/// deeper zoom is one file, loaded when the map first shows that zoom.
enum TileOccupancy {
    /// The zooms told in the page: 4^5 = 1,024 bits at the last, 256 hex digits.
    static let pageZooms = 0...5

    /// The tile's number at `zoom`.
    static func number(x: Int, y: Int, zoom: Int) -> Int { (y << zoom) + x }

    /// The tiles `numbers` of `zoom` as a bitmap: bit n set for tile n, four bits a hex digit, its lowest
    /// bit first.
    static func bitmap(_ numbers: [Int], zoom: Int) -> String {
        var digits = [Int](repeating: 0, count: max(1, (1 << (2 * zoom)) / 4))
        for number in numbers { digits[number >> 2] |= 1 << (number & 3) }
        return String(digits.map { Character(String($0, radix: 16)) })
    }

    /// The script of a deeper zoom's file, `photomapOccupied(z, "d,d,…")`: the tiles' numbers in
    /// increasing order, each as its difference from the one before (the first from 0) in base 36.
    static func script(_ numbers: [Int], zoom: Int) -> String {
        var previous = 0
        let steps = numbers.sorted().map { number in
            defer { previous = number }
            return String(number - previous, radix: 36)
        }
        return "photomapOccupied(\(zoom), \"\(steps.joined(separator: ","))\");\n"
    }

    /// The site folder of the deeper zooms' files under the map's folder (beside its tiles, not among them).
    static func folder(in mapFolder: String) -> String { "\(mapFolder)/occupied" }

    /// The site path of `zoom`'s file under the map's folder.
    static func path(folder: String, zoom: Int) -> String { "\(Self.folder(in: folder))/\(zoom).js" }
}
