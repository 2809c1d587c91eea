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
        set { enabled.store(newValue, ordering: .relaxed) }
    }
}
