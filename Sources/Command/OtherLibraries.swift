import Signals

// Other libraries' type names for a command, each an unavailable type alias, so that code typed
// from memory makes the compiler name ours instead of saying "cannot find 'Action' in scope". An
// unavailable declaration never competes with an available one: where a module that defines the
// real type (ReactiveSwift, Action of RxSwiftCommunity, during a migration) is imported too, the
// plain name means that module's type, as if these did not exist.

/// ReactiveSwift's `Action`: ``Command`` here (`apply(_:)` is `execute(_:)`, `isExecuting` is
/// `executing`, `isEnabled` is `enabled`).
@available(*, unavailable, message: "ReactiveSwift's Action<Input, Output, Error> is Command<Input, Output, Error> here: Command { input in signal }; apply(input) is execute(input), isExecuting is executing, isEnabled is enabled")
public typealias Action<Input: Sendable, Output: Sendable, Error: Swift.Error> = Command<Input, Output, Error>

/// ReactiveSwift's `ActionError`: ``CommandError`` here.
@available(*, unavailable, renamed: "CommandError")
public typealias ActionError<Error: Swift.Error> = CommandError<Error>
