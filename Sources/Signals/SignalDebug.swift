import Disposables
import Foundation
import Synchronization

/// The switch for debugging aids such as signal names.
///
/// RAC 2.5: the `RAC_DEBUG_SIGNAL_NAMES` environment variable.
public enum SignalDebug {
    private static let enabled = Atomic<Bool>(ProcessInfo.processInfo.environment["RAC_DEBUG_SIGNAL_NAMES"] != nil)

    /// Whether ``Signal/named(_:)`` builds and keeps names. Off unless the
    /// `RAC_DEBUG_SIGNAL_NAMES` environment variable is set.
    public static var isEnabled: Bool {
        get { enabled.load(ordering: .relaxed) }
        set {
            if newValue { everEnabled.store(true, ordering: .relaxed) }
            enabled.store(newValue, ordering: .relaxed)
        }
    }

    /// Whether names were ever kept: until then, signals need not look up or forget theirs.
    private static let everEnabled = Atomic<Bool>(ProcessInfo.processInfo.environment["RAC_DEBUG_SIGNAL_NAMES"] != nil)

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
