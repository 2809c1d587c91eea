#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a sender waits for a busy ``DeliveryLock``: a fixed table of mutex and condition pairs,
/// shared by every lock, so that a lock costs no more than one atomic word however many threads
/// may wait on it.
///
/// A waiter checks, under its bucket's mutex, that it still has reason to wait (the lock is
/// still owned and knows it has waiters), then sleeps on the bucket's condition; the owner, when
/// it leaves a lock that had waiters, broadcasts on the bucket under the same mutex. So no wakeup
/// is lost, and a waiter woken for another lock of the bucket (or for nothing) checks again.
/// Only senders that must wait come here; `dispose()`, `subscribe` and deinits never do.
enum Parking {
    private static let bucketCount = 64
    private static let table = Table(count: bucketCount)

    /// Sleeps while `shouldWait()`, checked under the bucket's mutex, is `true`; returns after a
    /// wakeup (which may be spurious: the caller checks its condition again).
    static func park(on object: AnyObject, while shouldWait: () -> Bool) {
        let index = bucket(of: object)
        pthread_mutex_lock(table.mutexes + index)
        if shouldWait() {
            pthread_cond_wait(table.conditions + index, table.mutexes + index)
        }
        pthread_mutex_unlock(table.mutexes + index)
    }

    /// Wakes every thread parked on `object`'s bucket.
    static func unparkAll(on object: AnyObject) {
        let index = bucket(of: object)
        pthread_mutex_lock(table.mutexes + index)
        pthread_cond_broadcast(table.conditions + index)
        pthread_mutex_unlock(table.mutexes + index)
    }

    private static func bucket(of object: AnyObject) -> Int {
        let address = UInt(bitPattern: ObjectIdentifier(object).hashValue)
        return Int((address >> 4) % UInt(bucketCount))
    }

    /// The buckets, made once and never freed.
    private final class Table: @unchecked Sendable {
        let mutexes: UnsafeMutablePointer<pthread_mutex_t>
        let conditions: UnsafeMutablePointer<pthread_cond_t>

        init(count: Int) {
            mutexes = .allocate(capacity: count)
            conditions = .allocate(capacity: count)
            for index in 0..<count {
                pthread_mutex_init(mutexes + index, nil)
                pthread_cond_init(conditions + index, nil)
            }
        }
    }
}
