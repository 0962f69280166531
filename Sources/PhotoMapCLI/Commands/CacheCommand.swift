// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport

/// `photomap cache [stats|verify|prune|clear]`: look after the thumbnail cache (`stats` when none is named).
enum CacheCommand {
    static let spec = CommandSpec(
        name: "cache",
        summary: "show, check, trim or empty the thumbnail cache",
        options: [jsonFlag.spec, dryRunFlag.spec, maxSizeOption.spec],
        arguments: Action.declared,
        examples: [
            .init("cache", "the folder in use and why, its entries, bytes, limit, hits and misses"),
            .init("cache prune --max-size 200MB", "least recently used first, down to 200 MB"),
        ])

    /// `--max-size SIZE`.
    static let maxSizeOption = Option<Int>.size(
        "max-size", "SIZE", "prune: keep at most SIZE, e.g. 200MB or 500KB (default: the cache limit)")
    static let jsonFlag = Flag("json", "print a JSON object instead of text (stats, verify)")
    static let dryRunFlag = Flag("dry-run", "say what prune or clear would remove, and remove nothing")

    /// What `cache` was asked, decoded once.
    struct Options: CommandOptions {
        var action: Action
        /// `--max-size`, in bytes (prune), if given.
        var maxSize: Int?
        var json, dryRun: Bool

        init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
            action = try parsed.action(Action.self)
            maxSize = try parsed.value(maxSizeOption)
            if maxSize != nil && action != .prune { throw UsageError("--max-size goes with cache prune") }
            dryRun = parsed.has(dryRunFlag)
            if dryRun && action != .prune && action != .clear {
                throw UsageError("--dry-run goes with cache prune or clear")
            }
            json = parsed.has(jsonFlag)
        }
    }

    /// What `cache` does.
    enum Action: String, CommandAction {
        case stats, verify, prune, clear

        /// `photomap cache` alone: what is in it, and which folder it is and why.
        static var defaultAction: Action? { .stats }

        var summary: String {
            switch self {
            case .stats: "entries, bytes, limit, and the hits and misses of every run"
            case .verify: "decode every entry; remove and count the corrupt ones"
            case .prune: "remove least-recently-used entries down to --max-size (default: the cache limit)"
            case .clear: "remove every entry"
            }
        }
    }

    static func run(_ options: Options, configuration: Services, console: Console) throws {
        let (action, dryRun) = (options.action, options.dryRun)
        let would = dryRun ? "would remove" : "removed"
        let unchanged = dryRun ? "; nothing removed (--dry-run)" : ""
        // What a dry run would do is what was asked for (standard output); what was done, a note.
        let tell: (String) -> Void = dryRun ? { console.print($0) } : { console.note($0) }
        let cache = try configuration.makeThumbnailCache(console: console)
        let json = options.json
        switch action {
        case .stats:
            let stats = cache.statistics()
            try print(
                stats, json: json, console: console,
                lines: [
                    "entries  \(stats.entries)",
                    "size     \(ByteSize.format(stats.bytes)) of \(ByteSize.format(stats.limitBytes))",
                    "hits     \(stats.hits)",
                    "misses   \(stats.misses)",
                    "folder   \(cache.directory.path)",
                    "chosen   by \(configuration.options.cacheDirectoryReason)",
                ])
        case .verify:
            let report = cache.verify()
            try print(
                report, json: json, console: console,
                lines: [
                    "checked \(report.entries + report.corrupt) entries: \(report.corrupt) corrupt (removed), \(report.entries) good, \(ByteSize.format(report.bytes))"
                        + (report.abandonedTemporaryFiles > 0
                            ? "; removed \(report.abandonedTemporaryFiles) abandoned temporary files" : "")
                ])
        case .prune:
            let limit = options.maxSize ?? configuration.options.cacheLimitBytes
            let removed = cache.prune(downTo: limit, dryRun: dryRun)
            tell(
                "\(would) \(Quantity.groupedWords(removed.entries, "entry", "entries")) (\(ByteSize.format(removed.bytes))); "
                    + "at most \(ByteSize.format(limit)) \(dryRun ? "would remain" : "remain")\(unchanged)")
        case .clear:
            let count = dryRun ? cache.statistics().entries : cache.clear()
            tell(
                "\(would) \(Quantity.groupedWords(count, "entry", "entries")) from \(cache.directory.path)\(unchanged)")
        }
    }

    private static func print(_ value: some Encodable, json: Bool, console: Console, lines: [String]) throws {
        guard json else { return lines.forEach { console.print($0) } }
        try console.printJSON(value)
    }
}
