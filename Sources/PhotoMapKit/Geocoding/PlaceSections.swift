// SPDX-License-Identifier: Apache-2.0
/// places.bin's sections, a field each (`PlaceFile`). `pass` is the one list of them in the file's order:
/// reading fills the fields from a file through it, writing adds them to one through it, so what is
/// written is what is read.
struct PlaceSections {
    /// The number of cities, the village grid's first place (one number).
    var cityCount = FlatColumn<Int64>([])
    var ids = FlatStrings([]), names = FlatStrings([])
    var contexts = FlatColumn<Int32>([])
    var contextTexts = FlatStrings([])
    var latitudes = FlatColumn<Double>([]), longitudes = FlatColumn<Double>([]), reaches = FlatColumn<Double>([])
    var countries = FlatColumn<Int32>([]), admin1s = FlatColumn<Int32>([])
    var locatedDivisions = FlatColumn<Int32>([])
    /// The codes' texts, each at its number.
    var codes = FlatStrings([])
    /// The city grid's row starts and place columns, then the village grid's.
    var cityRows = FlatColumn<Int32>([]), cityColumns = FlatColumn<Int32>([])
    var villageRows = FlatColumn<Int32>([]), villageColumns = FlatColumn<Int32>([])
    /// The country names' keys and texts, then the division names', sorted by key.
    var countryKeys = FlatStrings([]), countryNames = FlatStrings([])
    var divisionKeys = FlatStrings([]), divisionNames = FlatStrings([])
    /// The boundary index of the countries, then of the divisions.
    var countryIndex = Index(), divisionIndex = Index()

    /// A boundary index's sections.
    struct Index {
        /// Its regions' countries, divisions and names.
        var regionCountries = FlatStrings([]), regionDivisions = FlatStrings([]), regionNames = FlatStrings([])
        var longitudeSteps = FlatColumn<Int32>([]), latitudeSteps = FlatColumn<Int32>([])
        var cellStarts = FlatColumn<Int32>([])
        var entryRegions = FlatColumn<UInt32>([]), entryEdgeStarts = FlatColumn<Int32>([])
        var edges = FlatColumn<Int32>([])

        mutating func pass(_ file: inout some PlaceFileSections) throws(PlaceFile.Refusal) {
            try file.pass(&regionCountries)
            try file.pass(&regionDivisions)
            try file.pass(&regionNames)
            try file.pass(&longitudeSteps)
            try file.pass(&latitudeSteps)
            try file.pass(&cellStarts)
            try file.pass(&entryRegions)
            try file.pass(&entryEdgeStarts)
            try file.pass(&edges)
        }
    }

    /// Reads or writes every section, in the file's order.
    mutating func pass(_ file: inout some PlaceFileSections) throws(PlaceFile.Refusal) {
        try file.pass(&cityCount)
        try file.pass(&ids)
        try file.pass(&names)
        try file.pass(&contexts)
        try file.pass(&contextTexts)
        try file.pass(&latitudes)
        try file.pass(&longitudes)
        try file.pass(&reaches)
        try file.pass(&countries)
        try file.pass(&admin1s)
        try file.pass(&locatedDivisions)
        try file.pass(&codes)
        try file.pass(&cityRows)
        try file.pass(&cityColumns)
        try file.pass(&villageRows)
        try file.pass(&villageColumns)
        try file.pass(&countryKeys)
        try file.pass(&countryNames)
        try file.pass(&divisionKeys)
        try file.pass(&divisionNames)
        try countryIndex.pass(&file)
        try divisionIndex.pass(&file)
    }
}
