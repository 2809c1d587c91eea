import Dispatch

/// The priority of a background scheduler's work.
///
/// RAC 2.5: `RACSchedulerPriority` (`High`, `Default`, `Low`, `Background`).
public enum SchedulerPriority: Sendable, Hashable, CaseIterable {
    /// For work the user is waiting on.
    case high
    /// The default priority.
    case `default`
    /// For work that can wait.
    case low
    /// For maintenance work the user does not see.
    case background

    /// The quality of service of the global queue that a scheduler of this priority targets.
    var qos: DispatchQoS.QoSClass {
        switch self {
        case .high: .userInitiated
        case .default: .default
        case .low: .utility
        case .background: .background
        }
    }
}
