// SPDX-License-Identifier: Apache-2.0
/// Where the geocoder looks names up: the gazetteer parsed into memory (`Gazetteer`), or its index on
/// disk (`GazetteerIndex`), which answers a query without reading the rest.
public protocol GazetteerLookup: Sendable {
    /// Every entry that has, for each of `words`, a name word starting with it, with the entry's
    /// normalized names (its name first), in the gazetteer's order. Any name the geocoder matches
    /// holds each query word as a word or a word's start, so no match is ever left out; entries that
    /// hold the words across different names come too, and score nothing.
    func entries(withWordsStarting words: [Substring]) throws -> [(entry: GazetteerEntry, names: [String])]
    /// The regions (country, admin1 or "") a qualifier such as "Maine", "TX" or "Argentina" names.
    func regions(named qualifier: String) throws -> [(country: String, admin1: String)]
    /// Every landmark, for the local index.
    func landmarks() throws -> [GazetteerEntry]
}
