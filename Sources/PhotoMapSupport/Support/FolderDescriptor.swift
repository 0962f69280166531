// SPDX-License-Identifier: Apache-2.0
/// A folder held open, that files are made in by name (`openat`, `linkat`): kept open while a file is
/// staged in it.
package protocol FolderDescriptor: AnyObject, Sendable {
    /// The folder's descriptor, open as long as the object lives.
    var descriptor: Int32 { get }
}
