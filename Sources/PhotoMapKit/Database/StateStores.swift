import Foundation

/// Where photomap keeps what outlives a command — the local search index, Flickr's kept answers, the
/// recently viewed photos and the Flickr call budget: files of the cache folder (one machine, the
/// default) or one PostgreSQL database that any number of machines share.
public struct StateStores: Sendable {
    public let index: any SearchIndexStore
    public let answers: any AnswerStore
    public let recents: any RecentsStore
    private let budget: @Sendable (String) -> any CallBudgetStore

    /// The call budget of `apiKey`.
    public func callBudget(apiKey: String) -> any CallBudgetStore { budget(apiKey) }

    /// The files of the cache folder `cacheDirectory`; answers fresh for `answerTimeToLive` seconds.
    public static func files(cacheDirectory: URL, answerTimeToLive: TimeInterval) -> StateStores {
        StateStores(index: SQLiteIndexStore(cacheDirectory: cacheDirectory),
                    answers: ResponseCache(directory: cacheDirectory.appendingPathComponent("api"),
                                           timeToLive: answerTimeToLive),
                    recents: RecentPhotos(cacheDirectory: cacheDirectory),
                    budget: { FileCallBudget(cacheDirectory: cacheDirectory, apiKey: $0) })
    }

    /// The database `pool` reaches, migrated to this photomap's schema first (once, however many
    /// processes start together).
    public static func database(_ pool: PostgresPool, answerTimeToLive: TimeInterval) throws -> StateStores {
        try DatabaseSchema.migrate(pool)
        return StateStores(index: PostgresIndexStore(pool: pool),
                           answers: PostgresAnswers(pool: pool, timeToLive: answerTimeToLive),
                           recents: PostgresRecents(pool: pool),
                           budget: { PostgresCallBudget(pool: pool, apiKey: $0) })
    }
}
