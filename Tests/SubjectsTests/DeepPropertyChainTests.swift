import Disposables
import Foundation
import Signals
import Subjects
import TestSupport
import XCTest

/// Chains of derived properties nested too deeply for a thread's stack stop with a message, never
/// with a bare crash, on a thread with a 512 KiB stack; and letting go of a long chain
/// releases it in a loop.
final class DeepPropertyChainTests: XCTestCase {
    private let smallStack = 512 * 1024
    /// Far deeper than a 512 KiB stack holds, in any build: reads through 1,000 computed
    /// properties fill it in a debug build, 2,200 in a release build.
    private let tooDeep = 20_000
    /// Far more zipped properties than a change through them fits on a 512 KiB stack, in any
    /// build: 100 in a debug build, 370 in a release build.
    private let tooManyZips = 2_000
    /// More zipped properties than letting go of them one inside another fitted on a 512 KiB
    /// stack; fewer under a sanitizer, whose frames are larger and whose runs are slower.
    private let zipsToLetGo = BuildKind.isSanitized ? 5_000 : 20_000

    func testReadingAMapOfMapChainTooDeep_stopsWithAMessage() {
        let depth = tooDeep
        XCTAssertNil(expectStop("read", in: self, messageContains: "Property: reading the value of a property nests more deeply than this thread's stack allows") {
            onAPlainThread(stackSize: smallStack) {
                var property = Property(ObservableValue(0))
                for _ in 0..<depth { property = property.map { $0 + 1 } }
                _ = property.value
            }
        })
    }

    func testSubscribingToAMapOfMapChainTooDeep_stopsWithAMessage() {
        let depth = tooDeep
        XCTAssertNil(expectStop("subscribe", in: self, messageContains: "Signal: subscribing a signal chain nests more deeply than this thread's stack allows") {
            onAPlainThread(stackSize: smallStack) {
                var property = Property(ObservableValue(0))
                for _ in 0..<depth { property = property.map { $0 + 1 } }
                property.signal.subscribe(next: { _ in })
            }
        })
    }

    func testAChangeThroughAZipChainTooDeep_stopsWithAMessage() {
        let depth = tooManyZips
        XCTAssertNil(expectStop("zip", in: self, messageContains: "Property: a change passing through zipped properties nests more deeply than this thread's stack allows") {
            onAPlainThread(stackSize: smallStack) {
                let cell = ObservableValue(0)
                let partner = ObservableValue(0)
                var property = Property(cell)
                for _ in 0..<depth { property = property.zip(with: Property(partner)).map(\.0) }
                partner.value = 1
                cell.value = 1
            }
        })
    }

    func testAModeratelyDeepChain_readsSubscribesChangesAndLetsGo_onASmallStack() {
        // A change through one zipped property takes about 4.4 KiB of stack in a debug build.
        let depth = BuildKind.isSanitized ? 20 : 50
        let received = Lock<[Int]>([])
        let values = Lock<[Int]>([])
        let cellReference = Lock<WeakReference<ObservableValue<Int>>?>(nil)
        onAPlainThread(stackSize: smallStack) {
            let cell = ObservableValue(0)
            cellReference.withLock { $0 = WeakReference(cell) }
            let partner = ObservableValue(0)
            var property = Property(cell)
            for _ in 0..<depth { property = property.zip(with: Property(partner)).map { $0.0 + 1 } }
            values.withLock { $0.append(property.value) }
            let subscription = property.signal.subscribeNext { value in received.withLock { $0.append(value) } }
            partner.value = 1
            cell.value = 1
            values.withLock { $0.append(property.value) }
            subscription.dispose()
        }
        XCTAssertEqual(values.withLock { $0 }, [depth, depth + 1])
        XCTAssertEqual(received.withLock { $0 }, [depth, depth + 1])
        XCTAssertEqual(cellReference.withLock { $0?.isAlive }, false)
    }

    func testLettingGoOfALongZipChain_releasesItInALoop_onASmallStack() {
        // Each zipped property holds its sources: released nested, 20,000 of them overflowed 512 KiB.
        let depth = zipsToLetGo
        let cellReference = Lock<WeakReference<ObservableValue<Int>>?>(nil)
        onAPlainThread(stackSize: smallStack) {
            let cell = ObservableValue(0)
            cellReference.withLock { $0 = WeakReference(cell) }
            var property = Property(cell)
            for _ in 0..<depth { property = property.zip(with: Property(value: 0)).map(\.0) }
            withExtendedLifetime(property) {}
        }
        XCTAssertEqual(cellReference.withLock { $0?.isAlive }, false)
    }
}
