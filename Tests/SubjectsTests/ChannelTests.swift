import Disposables
import Signals
import Subjects
import TestSupport
import XCTest

private struct ChannelError: Error {}

final class ChannelTests: LeakCheckedTestCase {
    func testChannel_valuesSentIntoOneTerminalArriveAtTheOther() {
        let channel = Channel<Int>()
        let leading = Recorder<Int>()
        let following = Recorder<Int>()
        channel.leadingTerminal.subscribe(next: { leading.record($0) })
        channel.followingTerminal.subscribe(next: { following.record($0) })
        channel.leadingTerminal.sendNext(1)
        channel.followingTerminal.sendNext(2)
        XCTAssertEqual(following.values, [1])
        XCTAssertEqual(leading.values, [2])
    }

    func testChannel_followingTerminalReplaysTheLatestValue_leadingReplaysNothing() {
        let channel = Channel<Int>()
        channel.leadingTerminal.sendNext(1)
        channel.leadingTerminal.sendNext(2)
        channel.followingTerminal.sendNext(3)
        let following = Recorder<Int>()
        let leading = Recorder<Int>()
        channel.followingTerminal.subscribe(next: { following.record($0) })
        channel.leadingTerminal.subscribe(next: { leading.record($0) })
        XCTAssertEqual(following.values, [2])
        XCTAssertEqual(leading.values, [])
    }

    func testChannel_completionCrossesOverToBothSides() {
        let channel = Channel<Int>()
        let log = Recorder<String>()
        channel.leadingTerminal.subscribe(completed: { log.record("leading") })
        channel.followingTerminal.subscribe(completed: { log.record("following") })
        channel.followingTerminal.sendCompleted()
        XCTAssertEqual(Set(log.values), ["leading", "following"])
        XCTAssertEqual(log.values.count, 2)
    }

    func testChannel_errorsCrossOverToBothSides() {
        let channel = Channel<Int>()
        let log = Recorder<String>()
        channel.leadingTerminal.subscribe(error: { _ in log.record("leading") })
        channel.followingTerminal.subscribe(error: { _ in log.record("following") })
        channel.leadingTerminal.sendError(ChannelError())
        XCTAssertEqual(Set(log.values), ["leading", "following"])
    }

    func testChannel_terminalAsASubscriberForwardsASignal() {
        let channel = Channel<Int>()
        let following = Recorder<Int>()
        channel.followingTerminal.subscribe(next: { following.record($0) })
        Signal<Int, any Error> { subscriber in
            subscriber.sendNext(7)
            return nil
        }.subscribe(channel.leadingTerminal)
        XCTAssertEqual(following.values, [7])
    }

    func testChannel_endedChannelReleasesItsSubscribers() {
        let channel = Channel<Int>()
        let (_, token) = trackingLifetime { token in
            channel.followingTerminal.subscribe(next: { _ in _ = token })
        }
        channel.leadingTerminal.sendCompleted()
        XCTAssertFalse(token.isAlive)
    }
}
