// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A flickr.photos.search answer made from records already held, spliced in byte for byte: the
/// embedded catalog and the cache's listings re-page what they hold as Flickr would.
enum PhotosPage {
    /// Page `page` of `perPage` records, from `records` (the listing's records from its first on).
    static func answer<Records: RandomAccessCollection>(
        _ records: Records, page: Int, perPage: Int,
        total: Int
    ) -> Data
    where Records.Index == Int, Records.Element: Sequence<UInt8> {
        let perPage = max(perPage, 1)
        let pages = (total + perPage - 1) / perPage
        let start = min((max(page, 1) - 1) * perPage, records.count)
        var answer = Data(
            #"{"photos":{"page":\#(page),"pages":\#(pages),"perpage":\#(perPage),"total":"\#(total)","photo":["#.utf8)
        for (offset, record) in records[start..<min(start + perPage, records.count)].enumerated() {
            if offset > 0 { answer.append(UInt8(ascii: ",")) }
            answer.append(contentsOf: record)
        }
        answer.append(contentsOf: #"]},"stat":"ok"}"#.utf8)
        return answer
    }
}
