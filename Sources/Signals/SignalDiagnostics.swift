import Foundation

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
    ///
    /// The count says how many, not which: turn on ``isTrackingSubscriptions`` to list them, with
    /// their signals' names and where they were made.
    public static var liveSubscriptionCount: Int {
        LiveCount.total
    }

    /// Whether the subscriptions made from now on are tracked, so that ``liveSubscriptions`` can
    /// list them. Off by default; the `REACTIVECOCOA_TRACK_SUBSCRIPTIONS` environment variable
    /// (set to anything but `0` or nothing) turns it on from the start of the process, read once,
    /// before this switch is first set.
    ///
    /// Each subscription made through a public entry point (``Signal/subscribe(next:error:completed:file:line:)``,
    /// ``Signal/subscribe(_:file:line:)``, ``Signal/subscribeNext(_:file:line:)`` and the other
    /// `subscribe…` forms, ``Signal/subscribeOnMainActor(next:error:completed:file:line:)``,
    /// ``Signal/subscribeNextOnMainActor(_:file:line:)``, ``Signal/subscribeOnActor(_:next:error:completed:file:line:)``,
    /// ``Signal/assign(to:on:file:line:)`` and ``Signal/assignOnMainActor(to:on:file:line:)``)
    /// while it is on is listed until it ends (by its terminal event or by disposal) or is let go
    /// of: exactly while it holds what it was given (its closures or its subscriber), which is what
    /// a leaked subscription keeps alive. The listing holds nothing of the subscriptions: tracking
    /// changes no lifetime. Subscriptions the library makes inside its operators are not listed,
    /// nor those of ``Signal/values``, `first()` and the other `async` bridges.
    ///
    /// While it is on, ``Signal/named(_:)`` keeps names, as it does with ``SignalDebug/isEnabled``,
    /// so that each subscription is listed under its signal's name chain (`[search] -throttle: 0.3`):
    /// turn it on before the signals are built, at the start of a test or of the app.
    ///
    /// Off, it costs one relaxed load per subscription, and nothing per value. On, each
    /// subscription also takes a lock to be listed and another when it goes: for debug builds
    /// and tests, not for production.
    ///
    /// ```swift
    /// SignalDiagnostics.isTrackingSubscriptions = true
    /// ```
    ///
    /// New; RAC 2.5 has none (RxSwift counts its resources behind a build flag, without saying
    /// which).
    public static var isTrackingSubscriptions: Bool {
        get { SubscriptionTracking.isOn }
        set { SubscriptionTracking.isOn = newValue }
    }

    /// The subscriptions alive now that were made while ``isTrackingSubscriptions`` was on, oldest
    /// first; empty while it has never been on.
    ///
    /// Each comes with its signal's name chain and the file and line of the `subscribe` call that
    /// made it. Read it where ``liveSubscriptionCount`` would say there is a leak: what it lists
    /// is what is still alive. A subscription leaves the list on the thread that ends it or lets
    /// go of it, at the moment it lets go of its closures.
    ///
    /// ```swift
    /// for subscription in SignalDiagnostics.liveSubscriptions {
    ///     print(subscription.signalName, subscription.file, subscription.line)
    /// }
    /// ```
    public static var liveSubscriptions: [LiveSubscription] {
        SubscriptionTracking.live
    }

    /// ``liveSubscriptions`` as text, one line each, for a log or a failing test:
    ///
    /// ```
    /// 2 live:
    ///   `[[search] -throttle: 0.3] -flattenMap:` subscribed at App/SearchModel.swift:41
    ///   `results` subscribed at App/SearchModel.swift:44
    /// ```
    ///
    /// While tracking is off it says so, with ``liveSubscriptionCount``.
    public static func report() -> String {
        let live = liveSubscriptions
        guard isTrackingSubscriptions || !live.isEmpty else {
            return "\(liveSubscriptionCount) counted; subscription tracking is off "
                + "(set SignalDiagnostics.isTrackingSubscriptions or REACTIVECOCOA_TRACK_SUBSCRIPTIONS=1 to list them)"
        }
        return (["\(live.count) live\(live.isEmpty ? "" : ":")"] + live.map { "  \($0)" }).joined(separator: "\n")
    }

    /// One subscription listed by ``SignalDiagnostics/liveSubscriptions``.
    public struct LiveSubscription: Sendable, Hashable, CustomStringConvertible {
        /// The name chain of the signal subscribed to, as ``Signal/named(_:)`` and the operators
        /// gave it (`[[search] -throttle: 0.3] -flattenMap:`), or `nil` for a signal with no name.
        public let name: String?
        /// The type of the signal subscribed to, as `Signal<String, Never>`.
        public let signalType: String
        /// The file of the `subscribe` call, as `#fileID` gives it: `Module/File.swift`.
        public let file: String
        /// The line of the `subscribe` call.
        public let line: UInt
        /// The order in which the subscriptions were made: larger is later.
        public let sequence: Int
        /// When the subscription was made.
        public let date: Date
        /// Whether it was made on the main thread.
        public let isMainThread: Bool

        /// The signal's name, or its type when it has none.
        public var signalName: String {
            name ?? signalType
        }

        /// The signal's name in backticks, then `subscribed at` and the file and line:
        ///
        /// ```
        /// `[search] -map:` subscribed at App/SearchModel.swift:41
        /// ```
        public var description: String {
            "`\(signalName)` subscribed at \(file):\(line)"
        }

        package init(
            name: String?, signalType: String, file: String, line: UInt,
            sequence: Int, date: Date, isMainThread: Bool
        ) {
            self.name = name
            self.signalType = signalType
            self.file = file
            self.line = line
            self.sequence = sequence
            self.date = date
            self.isMainThread = isMainThread
        }
    }
}
