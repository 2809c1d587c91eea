import Foundation
import ReactiveCocoaSwift

// A command-line tool has no app around it running the main queue: main-queue work runs only
// while the tool runs the main run loop. So the tool gives its time operators a scheduler of its
// own, waits for what runs elsewhere with a blocking form, and runs the main run loop (with an
// `asynchronous` form) while it waits for anything that needs the main queue.

let worker = Scheduler.background(name: "worker")

// Work on a background scheduler, waited for by blocking the main thread: `toArray()` needs
// nothing from the main queue, so it returns.
let words = Signal<String, Never> { subscriber in
    for word in ["reactive", "cocoa", "swift"] { subscriber.sendNext(word) }
    subscriber.sendCompleted()
    return nil
}
let lengths = words.subscribe(on: worker).delay(0.01, on: worker).map(\.count).toArray()
print("lengths: \(lengths)")

// A failure is thrown, typed, by the blocking forms.
struct NotFound: Error {}
let lookup = Signal<String, NotFound>.error(NotFound()).subscribe(on: worker)
do {
    _ = try lookup.first()
} catch {
    print("lookup failed: \(error)")
}

// Values moved to the main thread: the main run loop must run for them to arrive, which
// `asynchronousFirst(default:timeout:)` does while it waits. (A plain `first()` here would
// wait for ever: the main thread would be blocked, and the main queue with it.)
let answer = Signal<Int, Never>.return(42)
    .subscribe(on: worker)
    .deliverOnMainThread()
    .map { "\($0), delivered on the main thread: \(Thread.isMainThread)" }
    .asynchronousFirst(default: "no answer", timeout: 10)
print(answer)

// A command runs its executions through the main queue, so it too needs the run loop.
let shout = Command<String, String, Never> { input in .return(input.uppercased()) }
print("command: \(shout.execute("hello").asynchronousFirst(default: "", timeout: 10))")
