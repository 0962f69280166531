// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// Where photomap keeps what outlives a command — the local search index, Flickr's kept answers, the
/// recently viewed photos, the Flickr call budget and the imported photos' catalog: files of the cache folder (one machine, the
/// default) or one PostgreSQL database that any number of machines share.
public struct StateStores: Sendable {
    public let index: any SearchIndexStore
    public let answers: any AnswerStore
    /// The people who may sign in to `serve`, their sessions and the owner's one-time links.
    public let accounts: any AccountStore
    /// The owners' recent location edits through `serve`, which an undo takes back.
    public let editHistory: any EditHistory
    /// The recently viewed photos, imported ones as anyone may see them.
    public var recents: any RecentsStore { recents(for: Audience.seen(by: nil)) }

    /// The recently viewed photos, imported ones as a viewer of `audiences` may see them (with the
    /// locations geofences hide when `showsFenced`: the owner's view).
    public func recents(for audiences: Set<Audience>, showsFenced: Bool = false) -> any RecentsStore {
        FencedRecents(
            store: viewedPhotos, catalog: { [localCatalog] in try localCatalog(false) }, audiences: audiences,
            showsFenced: showsFenced)
    }
    private let viewedPhotos: any RecentsStore
    private let budget: @Sendable (String) -> any CallBudgetStore
    private let localCatalog: @Sendable (_ writing: Bool) throws -> (any LocalCatalogStore)?

    init(
        index: any SearchIndexStore, answers: any AnswerStore, accounts: any AccountStore,
        editHistory: any EditHistory, recents: any RecentsStore,
        budget: @escaping @Sendable (String) -> any CallBudgetStore,
        localCatalog: @escaping @Sendable (_ writing: Bool) throws -> (any LocalCatalogStore)?
    ) {
        self.index = index
        self.answers = answers
        self.accounts = accounts
        self.editHistory = editHistory
        viewedPhotos = recents
        self.budget = budget
        self.localCatalog = localCatalog
    }

    /// The call budget of `apiKey`.
    public func callBudget(apiKey: String) -> any CallBudgetStore { budget(apiKey) }

    /// The imported photos' catalog, for `import` to write; made when it is not there.
    public func localCatalogForImport() throws -> any LocalCatalogStore {
        guard let store = try localCatalog(true) else { throw ImportError.nothingImported }
        return store
    }

    /// The imported photos' catalog to read, or nil when nothing was ever imported.
    public func importedPhotos() throws -> (any LocalCatalogStore)? {
        guard let store = try localCatalog(false), try store.version() > 0 else { return nil }
        return store
    }

    /// The catalog holding the geofences, or nil when there is none yet (nothing imported, no fence added).
    public func fencesStore() throws -> (any LocalCatalogStore)? {
        try localCatalog(false)
    }

    /// The files of the cache folder `cacheDirectory`; answers fresh for `answerTimeToLive` seconds.
    public static func files(cacheDirectory: URL, answerTimeToLive: TimeInterval) -> StateStores {
        StateStores(
            index: SQLiteIndexStore(cacheDirectory: cacheDirectory),
            answers: ResponseCache(
                directory: cacheDirectory.appendingPathComponent("api"),
                timeToLive: answerTimeToLive),
            accounts: SQLiteAccounts(cacheDirectory: cacheDirectory),
            editHistory: LocalEditHistory(
                file: LocalCatalog.file(in: cacheDirectory), depth: LocationEditing.undoable),
            recents: RecentPhotos(cacheDirectory: cacheDirectory),
            budget: { FileCallBudget(cacheDirectory: cacheDirectory, apiKey: $0) },
            localCatalog: { writing in
                try writing
                    ? LocalCatalog(file: LocalCatalog.file(in: cacheDirectory))
                    : LocalCatalog.existing(in: cacheDirectory)
            })
    }

    /// The database `pool` reaches, once its schema is checked to be this photomap's (`photomap db
    /// migrate` makes it so; nothing here creates a table).
    public static func database(_ pool: PostgresPool, answerTimeToLive: TimeInterval) throws -> StateStores {
        try DatabaseSchema.check(pool)
        return StateStores(
            index: PostgresIndexStore(pool: pool),
            answers: PostgresAnswers(pool: pool, timeToLive: answerTimeToLive),
            accounts: PostgresAccounts(pool: pool),
            editHistory: PostgresEditHistory(pool: pool, depth: LocationEditing.undoable),
            recents: PostgresRecents(pool: pool),
            budget: { PostgresCallBudget(pool: pool, apiKey: $0) },
            localCatalog: { _ in PostgresLocalCatalog(pool: pool) })
    }
}
