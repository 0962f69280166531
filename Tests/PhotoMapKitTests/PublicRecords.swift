// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

@testable import PhotoMapKit

extension LocalCatalogStore {
    /// Keeps records that everyone sees, and where: the tests whose subject is not who sees them.
    func keepRecords(_ records: [RecordPhoto]) throws -> [Photo] {
        try keepRecords(records, privacy: .everyone)
    }
}
