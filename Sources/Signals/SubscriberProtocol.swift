import Disposables

/// Something that receives a signal's events: a ``Subscriber``, or a subject.
///
/// RAC 2.5: `id<RACSubscriber>`.
public protocol SubscriberProtocol<Value, Failure>: AnyObject, Sendable {
    /// The type of the values received.
    associatedtype Value
    /// The type of the error received.
    associatedtype Failure: Error

    /// Receives a value.
    ///
    /// RAC 2.5: `-sendNext:`.
    func sendNext(_ value: Value)

    /// Receives an error; nothing is received after it.
    ///
    /// RAC 2.5: `-sendError:`.
    func sendError(_ error: Failure)

    /// Receives completion; nothing is received after it.
    ///
    /// RAC 2.5: `-sendCompleted`.
    func sendCompleted()

    /// Receives the disposable of a subscription that sends to this subscriber, before any event.
    ///
    /// A subscriber that has terminated disposes it at once.
    ///
    /// RAC 2.5: `-didSubscribeWithDisposable:`.
    func didSubscribe(with disposable: CompoundDisposable)
}
