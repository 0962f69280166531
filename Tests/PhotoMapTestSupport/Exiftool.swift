// SPDX-License-Identifier: Apache-2.0
import Foundation

/// exiftool (Debian libimage-exiftool-perl), the reference the sidecar tests read photomap's XMP with.
public enum Exiftool {
    /// Where Debian installs it.
    public static let path = "/usr/bin/exiftool"

    /// Whether it is installed.
    public static var installed: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// A sidecar's signed XMP GPS position as exiftool reads it, nil when it has none.
    public static func position(ofSidecar sidecar: String) throws -> (Double, Double)? {
        let json = try Subprocess.output(path, ["-n", "-json", "-XMP:GPSLatitude", "-XMP:GPSLongitude", sidecar])
        let row = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])?.first
        guard let latitude = row?["GPSLatitude"] as? Double, let longitude = row?["GPSLongitude"] as? Double else {
            return nil
        }
        return (latitude, longitude)
    }
}
