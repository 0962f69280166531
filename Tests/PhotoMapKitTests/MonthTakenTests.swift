// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel
import Testing

@testable import PhotoMapKit

@Suite("The timeline's months: read from dates taken, counted per month and per cluster")
struct MonthTakenTests {
    @Test("a date taken gives its year × 12 + month − 1; anything else gives no month")
    func months() {
        #expect(MonthTaken.index("2010-03-14 12:00:00") == 2010 * 12 + 2)
        #expect(MonthTaken.index("1999-12") == 1999 * 12 + 11)
        for bad in [
            nil, "", "2010", "2010-3-14", "2010-13-01", "2010-00-01", "0000-01-01", "20x0-01-01", "2010/03/14",
            "</script>", "٢٠١٠-٠٣-١٤",
        ] as [String?] {
            #expect(MonthTaken.index(bad) == nil, "\(bad ?? "nil")")
        }
    }

    @Test("the timeline steps by month up to 72 months from the first photo's to the last's, else by year")
    func step() {
        #expect(MonthTaken.step([24_000, nil, 24_071]) == 1)
        #expect(MonthTaken.step([24_000, 24_072]) == 12)
        #expect(MonthTaken.step([nil]) == 1)
        #expect(MonthTaken.stepStart(24_125, step: 12) == 24_120 && MonthTaken.stepStart(24_125, step: 1) == 24_125)
    }

    @Test("a histogram is [month, count, …] in month order, months without a date left out")
    func histogram() {
        #expect(MonthTaken.histogram([24122, nil, 24100, 24122, nil]) == [24100, 1, 24122, 2])
        #expect(MonthTaken.histogram([nil]) == [])
    }

    @Test("each cluster counts its photos by month, and the counts add up to the cluster's")
    func clusterMonths() throws {
        var points: [(index: Int, coordinate: Coordinate)] = []
        for index in 0..<500 {
            let latitude = 48.8 + Double(index % 37) / 300, longitude = 2.3 + Double(index % 41) / 300
            points.append((index, try #require(Coordinate(latitude: latitude, longitude: longitude))))
        }
        let months: [Int?] = (0..<500).map { $0 % 7 == 0 ? nil : 24_000 + $0 % 13 }
        for zoom in [0, 9, 13, 16] {
            let clusters = GridClusterer().clusters(of: points, zoom: zoom, months: months).values.flatMap { $0 }
            #expect(clusters.reduce(0) { $0 + $1.count } == 500)
            var counted = 0
            for cluster in clusters {
                let firsts = stride(from: 0, to: cluster.months.count, by: 2).map { cluster.months[$0] }
                let counts = stride(from: 1, to: cluster.months.count, by: 2).map { cluster.months[$0] }
                #expect(firsts == firsts.sorted())
                #expect(counts.reduce(0, +) <= cluster.count)
                counted += counts.reduce(0, +)
                if let alone = cluster.feature { #expect(cluster.months == (months[alone].map { [$0, 1] } ?? [])) }
            }
            #expect(counted == months.compactMap { $0 }.count)
        }
    }
}
