import Signals

// The multicasting spellings of RxSwift and Combine whose twin here, in this module, has another
// name: unavailable declarations with their argument labels, so that the compiler names ours (see
// Sources/Signals/OtherLibraries/ReactiveSwift.swift for the rules; the stubs that only need
// module Signals's types, such as `replayLazily(upTo:)`, live there, so that they work without
// this module).

extension Signal {
    /// Combine's `makeConnectable()`: `publish()` here.
    @available(*, unavailable, renamed: "publish()")
    public func makeConnectable() -> MulticastConnection<Value, Failure> {
        publish()
    }

    /// Combine's `multicast(subject:)`: `multicast(_:)` here.
    @available(*, unavailable, renamed: "multicast(_:)")
    public func multicast(subject: Subject<Value, Failure>) -> MulticastConnection<Value, Failure> {
        multicast(subject)
    }
}

extension MulticastConnection {
    /// RxSwift's `refCount()`: `share()` here, called on the signal itself (`source.share()` for
    /// RxSwift's `source.publish().refCount()`). RxSwift's `publish()` makes a new subject for
    /// each connection, so its `refCount()` connects again after every subscriber has left, as
    /// `share(replay:)` does; `autoconnect()`, RAC 2.5's, connects once and never again.
    @available(
        *, unavailable,
        message: "publish().refCount() is share() here, on the signal itself, which connects again after every subscriber has left; autoconnect() connects once"
    )
    public func refCount() -> Signal<Value, Failure> {
        autoconnect()
    }
}
