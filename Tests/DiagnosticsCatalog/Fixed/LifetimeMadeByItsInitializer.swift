import ReactiveCocoaSwift

final class LifetimeMadeByItsInitializer {
    let lifetime: Lifetime
    private let token: Lifetime.Token

    init() {
        (lifetime, token) = Lifetime.make()
    }
}
