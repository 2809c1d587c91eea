import Observation
import ReactiveCocoaSwift
import XCTest

/// Swift's Observation `Observable` protocol (and the `@Observable` macro) is not hidden by this
/// library's hint for RxSwift's `Observable`, in a file that imports both (and not PeerLookalikes,
/// whose `Observable` would be the peer's, as RxSwift's is).
@Observable final class CoexistingModel {
    var count = 0
}

final class CoexistingPlainModel: Observable {}

final class ObservationCoexistenceTests: XCTestCase {
    func testObservationsObservable_isNotHiddenByTheHint() {
        let model = CoexistingModel()
        XCTAssertTrue((model as Any) is any Observation.Observable)
        XCTAssertTrue((CoexistingPlainModel() as Any) is any Observable)
        let changes = ObservableValue(0)
        withObservationTracking { _ = model.count } onChange: { changes.value += 1 }
        model.count = 1
        XCTAssertEqual(changes.value, 1)
    }
}
