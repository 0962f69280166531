// SPDX-License-Identifier: Apache-2.0
/// photomap's version, said in one place: `photomap --version`, the Debian package (which reads that)
/// and the User-Agent of every request.
public enum PhotoMapVersion {
    public static let current = "0.1.0"
}
