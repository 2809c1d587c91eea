import Foundation

/// Whether the calling thread is the main thread, asked of Foundation once per thread and then
/// read from a thread-local slot, because ``Scheduler/current`` asks it on every subscription.
enum MainThread {
    private final class Marker: Sendable {}
    private static let main = Marker()
    private static let other = Marker()
    private static let slot = ThreadLocalReference<Marker>()

    static var isCurrent: Bool {
        if let marker = slot.value { return marker === main }
        let isMain = Thread.isMainThread
        slot.value = isMain ? main : other
        return isMain
    }
}
