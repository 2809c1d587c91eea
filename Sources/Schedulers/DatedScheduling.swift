import Disposables
import Foundation

/// A scheduler of this module that keeps its dated blocks itself: ``QueueScheduler``,
/// ``ActorScheduler``, ``TestScheduler``.
///
/// Their dated methods are written once, here, over one requirement: each checks the times it
/// is given, then hands the block to ``enqueueDated(_:at:repeatingEvery:leeway:)``. A scheduler's
/// overrides of ``Scheduler``'s dated methods only call these, and carry no documentation of their
/// own: ``Scheduler``'s says what they do. (They stay overrides, with their bodies inlined, so that
/// a dated block costs no call more than it did when each scheduler wrote them out.)
protocol DatedScheduling: Scheduler {
    /// Queues `action` for `time`, then every `interval` seconds when one is given; the times
    /// have been checked.
    ///
    /// - Returns: What cancels `action`, or stops its repetition.
    func enqueueDated(
        _ action: @escaping @Sendable () -> Void,
        at time: ScheduledTime,
        repeatingEvery interval: TimeInterval?,
        leeway: TimeInterval
    ) -> Disposable
}

extension DatedScheduling {
    /// ``Scheduler/schedule(after:_:)``.
    @inline(__always)
    func scheduleDated(after date: Date, _ action: @escaping @Sendable () -> Void) -> Disposable {
        checkDate(date, of: "\(Self.self).schedule(after:_:)")
        return enqueueDated(action, at: .date(date.timeIntervalSinceReferenceDate), repeatingEvery: nil, leeway: 0)
    }

    /// ``Scheduler/schedule(afterDelay:_:)``.
    @inline(__always)
    func scheduleDated(afterDelay delay: TimeInterval, _ action: @escaping @Sendable () -> Void) -> Disposable {
        checkDelay(delay, of: "\(Self.self).schedule(afterDelay:_:)")
        return enqueueDated(action, at: .delay(delay), repeatingEvery: nil, leeway: 0)
    }

    /// ``Scheduler/schedule(after:repeatingEvery:leeway:_:)``.
    @inline(__always)
    func scheduleDated(
        after date: Date,
        repeatingEvery interval: TimeInterval,
        leeway: TimeInterval,
        _ action: @escaping @Sendable () -> Void
    ) -> Disposable {
        checkDate(date, of: "\(Self.self).schedule(after:repeatingEvery:leeway:_:)")
        checkRepetition(every: interval, leeway: leeway, of: "\(Self.self).schedule(after:repeatingEvery:leeway:_:)")
        return enqueueDated(action, at: .date(date.timeIntervalSinceReferenceDate), repeatingEvery: interval, leeway: leeway)
    }
}
