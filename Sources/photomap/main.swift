// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapCLI

exit(PhotoMap.main(arguments: Array(CommandLine.arguments.dropFirst())))
