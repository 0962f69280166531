// SPDX-License-Identifier: Apache-2.0
import PhotoMapKit
import PhotoMapModel

/// One command-line option, declared once: its name, what its value is, and its line in `--help`.
/// The parser, `--help`, the shell completions and the man page all read this declaration.
struct OptionSpec: Sendable {
    /// What an option's value is: what the parser checks and completions offer.
    enum Value: Sendable, Equatable {
        /// Free text, shown as its placeholder ("N", "URL").
        case text(String)
        /// A file's path.
        case file(String)
        /// A folder's path.
        case directory(String)
        /// One of these words, checked by the parser.
        case choice([String])
        /// A whole number in the range, checked by the parser.
        case integer(String, ClosedRange<Int>)
        /// A finite number in the range, checked by the parser.
        case number(String, ClosedRange<Double>)
        /// A size in bytes above 0, as people type it ("200MB"), checked by the parser.
        case size(String)
        /// A place id, checked by the parser against the shape of Flickr's (`FlickrID`), as `serve` checks one.
        case placeID
    }

    /// The long name without dashes ("limit").
    let name: String
    /// What its value is, or nil for a flag.
    let value: Value?
    /// One line for `--help`.
    let help: String
    /// Whether the value may be left out (`--map` or `--map FILE`).
    var valueIsOptional = false
    /// Whether the command cannot run without it (`photos --place ID`).
    var isRequired = false
    /// The value when it is not given, as it would be typed (shown by `--help`).
    var defaultValue: String?
    /// The ending (".gpx") of the words after the value that are values too, up to the first that does not
    /// end so: a shell glob's files after one option, without taking the command's own arguments.
    var moreValuesEnding: String?
    /// The letter of a flag's one-dash spelling (`q` for `-q`), if it has one.
    var short: Character?
    /// Former words of a choice still taken, each with the word it is now (`fixtures` for `embedded`);
    /// help and completions offer only the choices.
    var aliases: [String: String] = [:]

    /// A flag such as `--json`, or `--quiet` also spelled `-q`.
    static func flag(_ name: String, _ help: String, short: Character? = nil) -> OptionSpec {
        OptionSpec(name: name, value: nil, help: help, short: short)
    }

    /// An option with a value such as `--limit N` or `--out DIR`, and its value when not given.
    static func value(
        _ name: String, _ value: Value, _ help: String, required: Bool = false,
        default defaultValue: String? = nil
    ) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help, isRequired: required, defaultValue: defaultValue)
    }

    /// An option taking one value or more, such as `--gpx FILE...`: the words after the first that end in
    /// `ending` are values too.
    static func values(_ name: String, _ value: Value, _ help: String, moreEnding ending: String) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help, moreValuesEnding: ending)
    }

    /// An option whose value may be left out, such as `--map [FILE]`.
    static func optionalValue(_ name: String, _ value: Value, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help, valueIsOptional: true)
    }

    /// The placeholder of its value ("N", "fixtures|flickr"), or nil for a flag.
    var valueName: String? {
        switch value {
        case nil: nil
        case let .text(placeholder), let .file(placeholder), let .directory(placeholder), let .integer(placeholder, _),
            let .number(placeholder, _), let .size(placeholder):
            placeholder
        case let .choice(words): words.joined(separator: "|")
        case .placeID: "ID"
        }
    }

    /// The words the value must be one of, if it is a choice.
    var choices: [String]? {
        if case let .choice(words) = value { return words }
        return nil
    }

    /// "--limit N", "--map [FILE]" or "--gpx FILE...", as help shows it.
    var synopsis: String {
        guard let valueName else { return "--\(name)" }
        return valueIsOptional ? "--\(name) [\(valueName)]" : "--\(name) \(valueName)" + (takesMore ? "..." : "")
    }

    /// "-q, --quiet" for a flag with a one-letter spelling, else the synopsis: the left column of help.
    var spellings: String {
        short.map { "-\($0), " + synopsis } ?? synopsis
    }

    /// Whether words after its value may be values too.
    var takesMore: Bool { moreValuesEnding != nil }

    /// Whether `word`, after this option's value, is one more value.
    func takes(more word: String) -> Bool {
        guard let moreValuesEnding, !word.hasPrefix("-") else { return false }
        return word.lowercased().hasSuffix(moreValuesEnding)
    }

    /// Its help with what the declaration adds: "(default 100)", "(required)".
    var fullHelp: String {
        help + (defaultValue.map { " (default \($0))" } ?? "") + (isRequired ? " (required)" : "")
    }

    /// `text` when it is a value this option takes (a choice, a number in range, a size); else the
    /// usage error naming the option: "--limit must be a whole number from 1 to 4000, not 'lots'".
    func checked(_ text: String, as label: String? = nil) throws(UsageError) -> String {
        let fits: Bool, expected: String
        switch value {
        case let .choice(words)?:
            if let word = aliases[text] { return word }
            fits = words.contains(text)
            expected =
                words.count > 2
                ? "one of " + words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
                : words.joined(separator: " or ")
        case let .integer(_, range)?:
            fits = Int(text).map(range.contains) ?? false
            expected =
                range.upperBound == .max
                ? "a whole number of at least \(range.lowerBound)"
                : "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case let .number(_, range)?:
            fits = Double(text).map { $0.isFinite && range.contains($0) } ?? false
            expected = "a number from \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound))"
        case .size?:
            fits = (ByteSize.parse(text) ?? 0) > 0
            expected = "a size such as 200MB or 1GB"
        case .placeID?:
            fits = FlickrID.isPlaceID(text)
            expected = FlickrID.placeIDShape
        default:
            return text
        }
        guard fits else { throw UsageError("\(label ?? "--" + name) must be \(expected), not '\(text)'") }
        return text
    }

    private static func plain(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }
}
