import Foundation
import Synchronization

/// Runs `body` on `threads` threads at once and returns when all have finished.
///
/// The threads are started first and wait at a barrier, so the bodies overlap as much as the
/// machine allows. `body` receives the thread's index, `0..<threads`.
public func race(threads: Int = 8, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = Atomic<Int>(0)
    let finished = DispatchGroup()
    for index in 0..<threads {
        finished.enter()
        let thread = Thread {
            ready.add(1, ordering: .acquiringAndReleasing)
            while ready.load(ordering: .acquiring) < threads { sched_yield() }
            body(index)
            finished.leave()
        }
        thread.start()
    }
    finished.wait()
}

/// Runs `race(threads:_:)` `times` times, for races that show up only now and then.
public func race(times: Int, threads: Int = 8, _ body: @escaping @Sendable (Int) -> Void) {
    for _ in 0..<times {
        race(threads: threads, body)
    }
}
