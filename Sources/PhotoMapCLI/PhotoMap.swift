// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapNetworking
import PhotoMapServer
import PhotoMapSupport

/// The `photomap` command line: parses the arguments, runs the command, reports errors.
public enum PhotoMap {
    private typealias Run = @Sendable (ParsedArguments, Services, Console) throws -> Void

    private static let commands: [(spec: CommandSpec, run: Run)] = [
        (PlacesCommand.spec, decoding(PlacesCommand.run)),
        (PhotosCommand.spec, decoding(PhotosCommand.run)),
        (CacheCommand.spec, decoding(CacheCommand.run)),
        (ExportCommand.spec, decoding(ExportCommand.run)),
        (FindCommand.spec, decoding(FindCommand.run)),
        (SearchCommand.spec, decoding(SearchCommand.run)),
        (IndexCommand.spec, decoding(IndexCommand.run)),
        (ServeCommand.spec, decoding(ServeCommand.run)),
        (RecentCommand.spec, decoding(RecentCommand.run)),
        (ImportCommand.spec, decoding(ImportCommand.run)),
        (GeotagCommand.spec, decoding(GeotagCommand.run)),
        (LocateCommand.spec, decoding(LocateCommand.run)),
        (FencesCommand.spec, decoding(FencesCommand.run)),
        (VisibilityCommand.spec, decoding(VisibilityCommand.run)),
        (TripsCommand.spec, decoding(TripsCommand.run)),
        (VisitedCommand.spec, decoding(VisitedCommand.run)),
        (UsersCommand.spec, decoding(UsersCommand.run)),
        (DatabaseCommand.spec, decoding(DatabaseCommand.run)),
        (CompletionsCommand.spec, decoding(CompletionsCommand.run)),
        (ManCommand.spec, ManCommand.run),
    ]

    /// A command's run that takes its options decoded (`CommandOptions`), as the table's runs are called.
    private static func decoding<Options: CommandOptions>(
        _ run: @escaping @Sendable (Options, Services, Console) throws -> Void
    ) -> Run {
        { parsed, services, console in try run(Options(parsed, global: services.options), services, console) }
    }

    /// photomap's own version.
    static let version = PhotoMapVersion.current

    /// Every command and option, as declared.
    static let interface = Interface(
        commands: commands.map(\.spec) + [HelpCommand.spec],
        globalOptions: GlobalOptions.declared + ArgumentParser.standardOptions)

    /// Runs a command line (without the program name) and returns the exit status.
    public static func main(
        arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        console: Console? = nil
    ) -> Int32 {
        var console = (console ?? .standard(environment: environment))
            .redacting(apiKey(in: arguments) ?? environment["FLICKR_API_KEY"] ?? "")
        var options: GlobalOptions?
        do {
            let parsed = try interface.parser.parse(arguments)
            console = console.saying(try ArgumentParser.verbosity(parsed))
            if parsed.wantsVersion && !parsed.wantsHelp {
                console.print(versions())
                return 0
            }
            if parsed.wantsHelp || parsed.command?.name == HelpCommand.spec.name {
                console.print(try HelpCommand.text(parsed, interface: interface))
                return 0
            }
            guard let command = parsed.command else { throw UsageError("no command given; try photomap --help") }
            let resolved = try GlobalOptions(parsed, environment: environment)
            options = resolved
            for entry in commands where entry.spec.name == command.name {
                try entry.run(parsed, Services(resolved), console)
            }
            return 0
        } catch {
            let report = ErrorReport(error, options: options)
            console.error(report.message)
            return report.exitStatus
        }
    }

    /// `--version`: photomap's version, then each C library's as it reports itself at run time.
    static func versions() -> String {
        (["photomap \(version)"]
            + LinkedLibraries.versions().map { library in
                "\(library.name) \(library.version)" + (library.detail.map { " (\($0))" } ?? "")
            }).joined(separator: "\n")
    }

    /// The value of `--api-key`, found before parsing so that even a usage error cannot print it.
    private static func apiKey(in arguments: [String]) -> String? {
        if let index = arguments.firstIndex(of: "--api-key"),
            index + 1 < arguments.count
        {
            return arguments[index + 1]
        }
        return arguments.last { $0.hasPrefix("--api-key=") }.map { String($0.dropFirst("--api-key=".count)) }
    }
}

/// Any error as the message a user reads and the exit status scripts test: what failed, in the
/// library's words, then what the user can do about it, which only the command line knows.
struct ErrorReport {
    let message: String
    let exitStatus: Int32

    /// The report of `error`; `options`, when the command line got that far, name the cache folder and
    /// the source in the advice.
    init(_ error: any Error, options: GlobalOptions? = nil) {
        let text = String(describing: error)
        let advice = options.flatMap { Self.advice(for: error, in: $0) } ?? Self.advice(for: error)
        message = text + (advice.map { "; " + $0 } ?? "")
        switch error {
        case is UsageError, FlickrError.missingAPIKey, DatabaseError.invalidAddress: exitStatus = 2
        default: exitStatus = 1
        }
    }

    /// What to do about `error` that depends on where photomap looked: the cache folder, the source.
    static func advice(for error: any Error, in options: GlobalOptions) -> String? {
        let folder = options.cacheFolderInUse
        switch error {
        case ImportError.nothingImported where options.database == nil:
            return "the cache folder in use is \(folder); run `photomap import FOLDER` first, "
                + "or give the folder you imported into with --cache DIR"
        case FlickrError.unknownPlace where options.source != .local:
            return "the ids are in `photomap places`; for the photos you imported, give --source local"
        case FlickrError.notCached where options.database == nil:
            return "the cache folder in use is \(folder); run the same command once online first, "
                + "or give the folder that has the answers with --cache DIR"
        case FlickrError.unknownLocalPlace:
            return "the ids are in `photomap --source local places`; the cache folder in use is \(folder); "
                + "for the embedded catalog, leave out --source local"
        default: return nil
        }
    }

    /// Whether `error` says the network is out of reach: a host not resolved, a connection refused or
    /// timed out (curl's codes 5, 6, 7 and 28).
    static func isNoNetwork(_ error: any Error) -> Bool {
        (error as? HTTPError)?.isNoNetwork == true
    }

    /// What to do about `error`, where there is something.
    static func advice(for error: any Error) -> String? {
        switch error {
        case _ where isNoNetwork(error): "no network: try --offline (answers already cached) or --source embedded"
        case FlickrError.missingAPIKey: "pass --api-key KEY or set FLICKR_API_KEY"
        case FlickrError.notCached: "run the same command once online first"
        case FlickrError.cachedAnswerDamaged: "run the same command without --offline to fetch it again"
        case FlickrError.unknownPlace, FlickrError.unknownLocalPlace: "the ids are in `photomap places`"
        case FlickrError.rateStateUnavailable:
            "photomap needs a writable cache folder (--cache DIR) to stay under Flickr's limit"
        case ThumbnailError.diskFull: "free some space or run `photomap cache prune`"
        case ThumbnailError.catalog(.catalogUnreadable): "run scripts/setup (or photomap-fixture-images)"
        case PageError.diskFull: "free some space and export again: pages not yet rewritten are still the previous ones"
        case PageError.leafletMissing: "apt-get install libjs-leaflet (or set PHOTOMAP_LEAFLET_DIR)"
        case PageError.assetsMissing, LocationError.gazetteerMissing,
            LocationError.gazetteerUnreadable:
            "run photomap from its build folder or checkout (scripts/setup)"
        case let error as SQLiteError where error.path.hasSuffix(LocalIndex.fileName):
            "`photomap index rebuild` makes it anew"
        case ImportError.nothingImported: "run `photomap import FOLDER` first (with the same --cache)"
        case RecordsError.notRecords, RecordsError.malformedGeoJSON:
            "give CSV whose first line is \(PhotoRecord.columns.joined(separator: ",")), or a GeoJSON FeatureCollection; nothing was imported"
        case RecordsError.tooLarge: "convert it to CSV, which is read in chunks; nothing was imported"
        case GeotagError.malformed, GeotagError.notGPX: "give GPX files (tracks as GPS devices and apps export them)"
        case AccountError.duplicate: "choose another name, or `photomap users remove` the one there first"
        case AccountError.unknownUser: "the names are in `photomap users list`"
        case ServerError.cannotListen: "choose another address or port with --listen"
        case DatabaseError.invalidAddress: "give --database a URL such as postgresql://user@host/photomap"
        case DatabaseError.unreachable: "check that PostgreSQL runs there and the URL (--database or PHOTOMAP_DATABASE)"
        case DatabaseError.schemaTooNew: "use a photomap at least as new as the one that migrated it"
        case DatabaseError.schemaTooOld:
            "run `photomap db migrate` (as a role that may create tables) to make or upgrade the schema, then try again"
        default: nil
        }
    }
}
