// SPDX-License-Identifier: Apache-2.0
/// Flickr's `datetaken` ("2011-04-15 17:48:17", the camera's local time) as an xsd:dateTime
/// ("2011-04-15T17:48:17") for KML's TimeStamp and GPX's time. Flickr does not say the time zone,
/// so none is written rather than a wrong one.
enum DateTaken {
    /// The dateTime, or nil for text that is not such a date, or Flickr's "not known" dates
    /// ("0000-00-00 …" and "1969-12-31 …", the Unix epoch's eve in US time zones).
    static func dateTime(_ text: String) -> String? {
        let bytes = Array(text.utf8), shape = Array("dddd-dd-dd dd:dd:dd".utf8)
        guard bytes.count == shape.count,
            zip(bytes, shape).allSatisfy({ byte, expected in
                expected == UInt8(ascii: "d")
                    ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == expected
            })
        else { return nil }
        func number(_ start: Int, _ length: Int) -> Int {
            bytes[start..<start + length].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        guard number(0, 4) >= 1, (1...12).contains(number(5, 2)), (1...31).contains(number(8, 2)),
            number(11, 2) < 24, number(14, 2) < 60, number(17, 2) < 60, !text.hasPrefix("1969-12-31")
        else { return nil }
        return text.replacingOccurrences(of: " ", with: "T")
    }
}
