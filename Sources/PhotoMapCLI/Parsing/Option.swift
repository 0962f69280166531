// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// An option declared once with the type of its value: `spec` is what the parser, `--help`, the shell
/// completions and the man page read, and `decode` turns the text the parser took (and checked, for
/// choices, numbers and sizes) into the value a command's options hold. A command reads its options
/// through these keys, never by name, so a name cannot drift from its declaration.
struct Option<Value: Sendable>: Sendable {
    /// The declaration.
    let spec: OptionSpec
    /// The value of a text the parser took; a usage error naming the option when the text is not one.
    let decode: @Sendable (String) throws(UsageError) -> Value

    init(_ spec: OptionSpec, decode: @escaping @Sendable (String) throws(UsageError) -> Value) {
        self.spec = spec
        self.decode = decode
    }

    /// The long name without dashes.
    var name: String { spec.name }

    /// The same option with another value type, decoded from this one's value: `--at` as a coordinate.
    func map<Other>(_ transform: @escaping @Sendable (Value) throws(UsageError) -> Other) -> Option<Other> {
        let decode = self.decode
        return Option<Other>(spec) { text throws(UsageError) in try transform(decode(text)) }
    }

    /// The same option also taking former words of its choices, each with the word it is now.
    func aliasing(_ aliases: [String: String]) -> Option {
        var spec = spec
        spec.aliases = aliases
        return Option(spec, decode: decode)
    }

    /// The value of `text` taken from somewhere else than the command line (an environment variable
    /// called `label`), checked as the parser checks the option's own.
    func value(of text: String, as label: String) throws(UsageError) -> Value {
        try decode(spec.checked(text, as: label))
    }
}

/// A flag such as `--json`: given or not.
struct Flag: Sendable {
    /// The declaration.
    let spec: OptionSpec

    /// `--name`, or `--quiet` also spelled `-q`.
    init(_ name: String, _ help: String, short: Character? = nil) {
        spec = .flag(name, help, short: short)
    }

    /// The long name without dashes.
    var name: String { spec.name }
}

extension Option where Value == String {
    /// Free text such as `--find TEXT`.
    static func text(
        _ name: String, _ placeholder: String, _ help: String, required: Bool = false, default value: String? = nil
    ) -> Option {
        Option(.value(name, .text(placeholder), help, required: required, default: value)) { $0 }
    }

    /// A place id, checked by the parser against the shape of Flickr's.
    static func placeID(_ name: String, _ help: String, required: Bool = false) -> Option {
        Option(.value(name, .placeID, help, required: required)) { $0 }
    }

    /// An option whose value may be left out (`--map [FILE]`): "" when it is.
    static func optionalValue(_ name: String, _ value: OptionSpec.Value, _ help: String) -> Option {
        Option(.optionalValue(name, value, help)) { $0 }
    }

    /// A path kept as typed, for an option where an empty one means "not given" or is the library's to
    /// refuse (`--cache ""` falls back to PHOTOMAP_CACHE).
    static func path(_ name: String, _ value: OptionSpec.Value, _ help: String, required: Bool = false) -> Option {
        Option(.value(name, value, help, required: required)) { $0 }
    }

    /// A file's path taking the words after it that end in `ending` too (`--gpx FILE...`); every value is
    /// read with `ParsedArguments.all`.
    static func files(_ name: String, _ placeholder: String, _ help: String, moreEnding ending: String) -> Option {
        Option(.values(name, .file(placeholder), help, moreEnding: ending)) { $0 }
    }
}

extension Option where Value == URL {
    /// A file's path, such as `--output FILE`; an empty one is a usage error.
    static func file(_ name: String, _ placeholder: String, _ help: String, required: Bool = false) -> Option {
        path(.value(name, .file(placeholder), help, required: required), kind: "file")
    }

    /// A folder's path, such as `--out DIR`; an empty one is a usage error.
    static func directory(
        _ name: String, _ placeholder: String, _ help: String, required: Bool = false
    ) -> Option {
        path(.value(name, .directory(placeholder), help, required: required), kind: "folder")
    }

    private static func path(_ spec: OptionSpec, kind: String) -> Option {
        Option(spec) { text throws(UsageError) in
            guard !text.isEmpty else { throw UsageError("--\(spec.name) needs a \(kind) name") }
            return URL(fileURLWithPath: text)
        }
    }
}

extension Option where Value == Int {
    /// A whole number in `range`, such as `--limit N`.
    static func integer(
        _ name: String, _ placeholder: String, _ range: ClosedRange<Int>, _ help: String, default value: String? = nil
    ) -> Option {
        Option(.value(name, .integer(placeholder, range), help, default: value)) { text throws(UsageError) in
            guard let number = Int(text) else { throw UsageError("--\(name) must be a whole number, not '\(text)'") }
            return number
        }
    }

    /// A size in bytes, typed as people type it ("200MB"), such as `--cache-limit SIZE`.
    static func size(_ name: String, _ placeholder: String, _ help: String, default value: String? = nil) -> Option {
        Option(.value(name, .size(placeholder), help, default: value)) { text throws(UsageError) in
            guard let bytes = ByteSize.parse(text) else {
                throw UsageError("--\(name) must be a size such as 200MB or 1GB, not '\(text)'")
            }
            return bytes
        }
    }
}

extension Option where Value == Double {
    /// A finite number in `range`, such as `--radius METRES`.
    static func number(
        _ name: String, _ placeholder: String, _ range: ClosedRange<Double>, _ help: String,
        default value: String? = nil
    ) -> Option {
        Option(.value(name, .number(placeholder, range), help, default: value)) { text throws(UsageError) in
            guard let number = Double(text) else { throw UsageError("--\(name) must be a number, not '\(text)'") }
            return number
        }
    }
}

extension Option where Value: RawRepresentable<String> & CaseIterable & Sendable {
    /// One of an enum's cases by its word, such as `--sidecar-name full|base`.
    static func choice(_ name: String, _ help: String, default value: Value? = nil) -> Option {
        choice(name, Value.allCases.map(\.rawValue), help, default: value?.rawValue) { Value(rawValue: $0) }
    }
}

extension Option {
    /// One of `words` (the parser checked it), as the value `decode` makes of it.
    static func choice(
        _ name: String, _ words: [String], _ help: String, default value: String? = nil,
        decode: @escaping @Sendable (String) -> Value?
    ) -> Option {
        Option(.value(name, .choice(words), help, default: value)) { text throws(UsageError) in
            guard let chosen = decode(text) else {
                throw UsageError("--\(name) must be one of \(words.joined(separator: ", ")), not '\(text)'")
            }
            return chosen
        }
    }
}
