import Foundation
import PhotoMapKit

/// The `photomap` command line: parses the arguments, runs the command, reports errors.
public enum PhotoMap {
    private typealias Run = @Sendable (ParsedArguments, Configuration, Console) throws -> Void

    private static let commands: [(spec: CommandSpec, run: Run)] = [
        (PlacesCommand.spec, PlacesCommand.run),
        (PhotosCommand.spec, PhotosCommand.run),
        (CacheCommand.spec, CacheCommand.run),
    ]

    private static let parser = ArgumentParser(globalOptions: Configuration.globalOptions, commands: commands.map(\.spec))

    /// Runs a command line (without the program name) and returns the exit status.
    public static func main(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                            console: Console? = nil) -> Int32 {
        let console = console ?? .standard(environment: environment)
        var secret = environment["FLICKR_API_KEY"] ?? ""
        do {
            let parsed = try parser.parse(arguments)
            secret = parsed.value("api-key") ?? secret
            guard let command = parsed.command else {
                if parsed.wantsHelp {
                    console.print(Help.general(commands: commands.map(\.spec), globalOptions: Configuration.globalOptions))
                    return 0
                }
                throw UsageError("no command given; try photomap --help")
            }
            if parsed.wantsHelp {
                console.print(Help.command(command, globalOptions: Configuration.globalOptions))
                return 0
            }
            let configuration = try Configuration(parsed, environment: environment)
            guard let run = commands.first(where: { $0.spec.name == command.name })?.run else { return 2 }
            try run(parsed, configuration, console)
            return 0
        } catch {
            let report = ErrorReport(error)
            console.err("photomap: error: \(report.message.replacingSecret(secret))\n")
            return report.exitStatus
        }
    }
}

/// Any error as the message a user reads and the exit status scripts test.
struct ErrorReport {
    let message: String
    let exitStatus: Int32

    init(_ error: any Error) {
        switch error {
        case let usage as UsageError:
            message = usage.description
            exitStatus = 2
        case FlickrError.missingAPIKey:
            message = String(describing: error)
            exitStatus = 2
        case let error as any CustomStringConvertible & Error:
            message = error.description
            exitStatus = 1
        default:
            message = error.localizedDescription
            exitStatus = 1
        }
    }
}

private extension String {
    /// The API key must never reach output, even inside a message from a library.
    func replacingSecret(_ secret: String) -> String {
        secret.count < 4 ? self : replacingOccurrences(of: secret, with: "[api key]")
    }
}
