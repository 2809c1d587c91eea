import Signals

// The multicasting spellings of RxSwift and Combine whose twin here, in this module, has another
// name: unavailable declarations with their argument labels, so that the compiler names ours (see
// Sources/Signals/OtherLibraries/ReactiveSwift.swift for the rules; the stubs that only need
// module Signals's types, such as `share()`, live there, so that they work without this module).

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
    /// RxSwift's `refCount()`: `autoconnect()` here, which connects once and does not reconnect
    /// when a subscriber comes back after the last one left.
    @available(*, unavailable, renamed: "autoconnect()")
    public func refCount() -> Signal<Value, Failure> {
        autoconnect()
    }
}
