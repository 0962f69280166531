import Foundation
import PhotoMapCLI

exit(PhotoMap.main(arguments: Array(CommandLine.arguments.dropFirst())))
