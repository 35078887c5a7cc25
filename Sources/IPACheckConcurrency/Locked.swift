#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a lock: the one way our code shares mutable state between threads.
///
/// Read or change the value with ``withLock(_:)``. A thread that must wait for another's work (a worker waiting
/// for a job, a reader waiting for a batch's result) uses ``withLock(when:_:)``, which sleeps until the value
/// satisfies a condition; every ``withLock(_:)`` wakes such waiters to look again. Sleeping blocks the thread, so
/// it is for threads of our own and synchronous callers: async code only takes the lock briefly, and suspends on a
/// continuation or a task to wait.
///
/// Not `Synchronization.Mutex`, which needs macOS 15 (we support macOS 13), nor `NSLock`/`NSCondition` (this
/// module does without Foundation): the mutex and condition variable are POSIX's, the same on both platforms.
///
/// This is the project's one `@unchecked Sendable` type, and `@safe` although it holds pointers. Both are sound
/// because `value` and `waiters` are only read or written between `pthread_mutex_lock` and
/// `pthread_mutex_unlock` on `mutex` (every access is inside `withLock`); the value is `Sendable`, so what a
/// closure returns from it may cross threads; and the pointers never leave this class: the mutex and condition
/// live at fixed addresses allocated here, initialised before first use and destroyed only in `deinit`, when no
/// other reference (so no other thread) can still use them.
@safe package final class Locked<Value: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Guarded by `mutex`.
    private var value: Value
    /// Threads sleeping in ``withLock(when:_:)``; guarded by `mutex`.
    private var waiters = 0

    /// Puts `value` behind a new lock.
    package init(_ value: Value) {
        self.value = value
        unsafe mutex = UnsafeMutablePointer.allocate(capacity: 1)
        unsafe mutex.initialize(to: pthread_mutex_t())
        unsafe condition = UnsafeMutablePointer.allocate(capacity: 1)
        unsafe condition.initialize(to: pthread_cond_t())
        let mutexStatus = unsafe pthread_mutex_init(mutex, nil)
        let conditionStatus = unsafe pthread_cond_init(condition, nil)
        precondition(mutexStatus == 0 && conditionStatus == 0, "cannot create a lock")
    }

    deinit {
        unsafe pthread_cond_destroy(condition)
        unsafe pthread_mutex_destroy(mutex)
        unsafe condition.deinitialize(count: 1)
        unsafe mutex.deinitialize(count: 1)
        unsafe condition.deallocate()
        unsafe mutex.deallocate()
    }

    /// Calls `body` with the value while holding the lock, and returns what it returns.
    ///
    /// Keep `body` short, and never wait or suspend in it.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock()
        defer { unlockWakingWaiters() }
        return try body(&value)
    }

    /// Sleeps until `ready` holds for the value, then calls `body` with it while holding the lock.
    ///
    /// Blocks the calling thread: only for threads of our own and synchronous callers, never in async code.
    package func withLock<Result, Failure: Error>(
        when ready: (Value) -> Bool,
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock()
        defer { unlockWakingWaiters() }
        waiters += 1
        while !ready(value) {
            let status = unsafe pthread_cond_wait(condition, mutex)
            precondition(status == 0, "cannot wait on a lock's condition")
        }
        waiters -= 1
        return try body(&value)
    }

    private func lock() {
        let status = unsafe pthread_mutex_lock(mutex)
        precondition(status == 0, "cannot take a lock")
    }

    /// Wakes the waiting threads (the value may now satisfy them) and lets go of the lock.
    private func unlockWakingWaiters() {
        if waiters > 0 { unsafe pthread_cond_broadcast(condition) }
        let status = unsafe pthread_mutex_unlock(mutex)
        precondition(status == 0, "cannot release a lock")
    }
}
