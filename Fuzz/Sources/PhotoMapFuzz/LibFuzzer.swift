// SPDX-License-Identifier: Apache-2.0
import CLibFuzzer
import Foundation
import PhotoMapFuzzTargets

/// Hands a target to libFuzzer's driver.
enum LibFuzzer {
    /// The target libFuzzer's callback runs: a C function pointer cannot capture it.
    nonisolated(unsafe) private static var current: FuzzTarget?

    /// What every target gets unless its own options or the command line say otherwise: an input that
    /// takes longer than this is reported as a hang.
    static let defaults = ["-timeout=10"]

    /// Runs libFuzzer with `arguments` (argv[0] first) after the defaults and the target's own options
    /// (libFuzzer takes the last of a repeated flag); returns its status.
    static func run(_ target: FuzzTarget, arguments: [String]) -> Int32 {
        current = target
        target.prepare()
        let all = [arguments[0]] + defaults + target.options + arguments.dropFirst()
        var pointers: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) } + [nil]
        var count = Int32(all.count)
        return pointers.withUnsafeMutableBufferPointer { buffer in
            var argv = buffer.baseAddress
            return LLVMFuzzerRunDriver(&count, &argv) { data, size in
                guard let target = LibFuzzer.current else { return 0 }
                let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
                return target.run(bytes) ? 0 : -1
            }
        }
    }
}
