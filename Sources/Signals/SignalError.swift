/// The errors the library itself raises.
///
/// Operators that can fail on their own (`timeout(_:on:)`, `Signal.switch(_:cases:default:)`)
/// send one of these when their `Failure` can hold it: `SignalError` itself or `any Error`; a
/// bounded `pace` fails with the error its policy names, ``backlogFull`` where the type allows.
///
/// RAC 2.5: `RACSignalErrorDomain`'s codes.
public enum SignalError: Error, Equatable, Sendable {
    /// `timeout(_:on:)`'s deadline passed before the source ended.
    ///
    /// RAC 2.5: `RACSignalErrorTimedOut`.
    case timedOut

    /// `Signal.switch(_:cases:default:)` received a key that none of its cases matches and it has
    /// no default; the payload describes the key.
    ///
    /// RAC 2.5: `RACSignalErrorNoMatchingCase`.
    case noMatchingCase(String)

    /// A bounded ``Signal/pace(_:on:bufferingAtMost:whenFull:)`` received a value with its
    /// backlog full, and its policy, `.fail(.backlogFull)`, was to fail: the error you pass that
    /// policy when the failure type is `SignalError` or `any Error`.
    ///
    /// New; RAC 2.5 has none.
    case backlogFull
}
