/// Aids for finding leaked subscriptions, always compiled in.
///
/// RxSwift keeps a count of its resources behind a build flag (`RxSwift.Resources.total`); this
/// count is always there, cheap enough for release builds: each thread keeps its own part, summed
/// only when read.
public enum SignalDiagnostics {
    /// How many subscriptions are alive in the process, counted by their serialization points:
    /// the lock through which each subscription's events enter its chain (one for each
    /// subscription to a created signal, one for each `zip`, `combineLatest`, `merge`-like
    /// junction, …) and each subscription to a hot signal (a pipe, a subject), from when it is
    /// made until it is freed.
    ///
    /// A subscription that ended (by its terminal event, or by `dispose()`) and that nothing holds
    /// is freed; one kept alive by a cycle or a forgotten reference stays counted. Read it before
    /// and after a piece of work that should leave nothing behind, once the work's asynchronous
    /// parts have finished (a delivery hopping to the main queue frees its subscription only
    /// after the hop): a count that stays higher than before is a leak.
    ///
    /// ```swift
    /// let before = SignalDiagnostics.liveSubscriptionCount
    /// runTheScreen()
    /// assert(SignalDiagnostics.liveSubscriptionCount == before)
    /// ```
    ///
    /// The count covers the whole process, every thread: read it where nothing else subscribes
    /// meanwhile (a test, a debug menu), not as an exact figure while other work runs.
    public static var liveSubscriptionCount: Int {
        LiveCount.total
    }
}
