// `Lifetime()`, as one makes most things: the compiler used to point at a private initializer.
// Expect: Lifetime.make()
import ReactiveCocoaSwift

final class LifetimeMadeByItsInitializer {
    let lifetime = Lifetime()
}
