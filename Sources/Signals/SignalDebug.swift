#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Disposables
import Synchronization

/// The switch for debugging aids such as signal names.
///
/// RAC 2.5: the `RAC_DEBUG_SIGNAL_NAMES` environment variable.
public enum SignalDebug {
    private static let enabled = Atomic<Bool>(environmentAsksForNames)

    /// Whether `RAC_DEBUG_SIGNAL_NAMES` is set. Read once, with `getenv`: `ProcessInfo.environment`
    /// copies the whole environment each time, and three flags start from it.
    private static let environmentAsksForNames = getenv("RAC_DEBUG_SIGNAL_NAMES") != nil

    /// Whether ``Signal/named(_:)`` builds and keeps names. Off unless the
    /// `RAC_DEBUG_SIGNAL_NAMES` environment variable is set.
    public static var isEnabled: Bool {
        get { enabled.load(ordering: .relaxed) }
        set {
            if newValue { everEnabled.store(true, ordering: .relaxed) }
            enabled.store(newValue, ordering: .relaxed)
            keeping.store(newValue || SubscriptionTracking.isOn, ordering: .relaxed)
        }
    }

    /// Whether names were ever kept: until then, signals need not look up or forget theirs.
    private static let everEnabled = Atomic<Bool>(
        environmentAsksForNames || SubscriptionTracking.environmentAsksForTracking
    )

    /// Whether ``Signal/named(_:)`` keeps names: while debugging is on, and while
    /// ``SignalDiagnostics/isTrackingSubscriptions`` is, so that the listing of live subscriptions
    /// names their signals. One flag, so that `named` still costs one load.
    private static let keeping = Atomic<Bool>(
        environmentAsksForNames || SubscriptionTracking.environmentAsksForTracking
    )

    /// Whether names are being kept (see ``keeping``).
    static var keepsNames: Bool {
        keeping.load(ordering: .relaxed)
    }

    /// Keeps names while subscription tracking is on, as well as while debugging is.
    static func keepNamesForTracking(_ isTracking: Bool) {
        if isTracking { everEnabled.store(true, ordering: .relaxed) }
        keeping.store(isTracking || enabled.load(ordering: .relaxed), ordering: .relaxed)
    }

    /// The names of live signals, by identity. Kept aside, so a signal pays no storage for a name
    /// unless debugging is on.
    private static let names = Lock<[ObjectIdentifier: String]>([:])

    static func name(of signal: AnyObject) -> String? {
        guard everEnabled.load(ordering: .relaxed) else { return nil }
        return names.withLock { $0[ObjectIdentifier(signal)] }
    }

    static func setName(_ name: String, of signal: AnyObject) {
        names.withLock { $0[ObjectIdentifier(signal)] = name }
    }

    /// Drops the name of a signal being deinitialized, so its identity can be reused.
    @inline(__always)
    static func forget(_ signal: AnyObject) {
        guard everEnabled.load(ordering: .relaxed) else { return }
        let forgotten = names.withLock { $0.removeValue(forKey: ObjectIdentifier(signal)) }
        _ = forgotten
    }
}
