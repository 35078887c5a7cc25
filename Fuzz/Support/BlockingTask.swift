import Foundation

/// Runs async code to completion from libFuzzer's synchronous callback.
///
/// The harnesses call async APIs (a site check, trust evaluation) that never suspend on real I/O here, so
/// blocking the calling thread on a semaphore until the task ends is safe: the task runs on the cooperative pool.
public func waitFor<Result: Sendable>(_ operation: @escaping @Sendable () async -> Result) -> Result {
    let box = ResultBox<Result>()
    let done = DispatchSemaphore(value: 0)
    Task {
        box.value = await operation()
        done.signal()
    }
    done.wait()
    guard let value = box.value else { fatalError("the task ended without a result") }
    return value
}

/// Carries a task's result to the waiting thread; the semaphore orders the write before the read.
private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}
