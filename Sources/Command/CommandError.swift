/// Why a signal returned by ``Command/execute(_:)`` failed.
///
/// RAC 2.5: an `NSError` in `RACCommandErrorDomain` with code `RACCommandErrorNotEnabled`, or the
/// execution's own error.
public enum CommandError<Failure: Error>: Error {
    /// The command was not enabled when `execute` was called, so nothing ran: the signal block was
    /// not called. Never sent on ``Command/errors``.
    ///
    /// RAC 2.5: `RACCommandErrorNotEnabled`.
    case notEnabled
    /// The execution's signal failed with this error, which ``Command/errors`` also sends.
    case failed(Failure)

    /// The execution's error, or `nil` for ``notEnabled``.
    ///
    /// RAC 2.5: none; there the error is the execution's own `NSError`, or one in
    /// `RACCommandErrorDomain`.
    public var failure: Failure? {
        if case let .failed(failure) = self { return failure }
        return nil
    }
}

extension CommandError: Equatable where Failure: Equatable {}

extension CommandError: Hashable where Failure: Hashable {}

extension CommandError: CustomStringConvertible {
    /// What went wrong, in words: RAC 2.5's `NSLocalizedDescriptionKey` for ``notEnabled`` ("The
    /// command is disabled and cannot be executed"), the execution's error for ``failed(_:)``.
    public var description: String {
        switch self {
        case .notEnabled: "The command is disabled and cannot be executed"
        case let .failed(failure): "The command's execution failed: \(failure)"
        }
    }
}
