// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The options of a listing that takes only where it goes and `--map` (`places`, `recent`), decoded once;
/// the map page is called photomap-COMMAND.html unless named.
struct ListingOptions: CommandOptions {
    var destination: AnnotationOutput.Destination
    /// `--map`: the page's file, if asked for.
    var map: URL?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
        destination = try AnnotationOutput.destination(parsed)
        map = try MapOutput.file(parsed, defaultName: "photomap-\(parsed.command?.name ?? "listing").html")
    }
}
