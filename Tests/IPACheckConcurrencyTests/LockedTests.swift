import Foundation
import Testing

@testable import IPACheckConcurrency

/// The one lock the project shares state with: every change made under it survives threads racing for it, and a
/// thread waiting for a condition wakes once another thread's change makes it hold.
struct LockedTests {
    @Test("changes made under the lock by racing threads all survive")
    func racingChangesAllSurvive() {
        let counter = Locked(0)
        let finished = Locked(0)
        let threads = 8
        let increments = 10_000
        for _ in 0..<threads {
            Thread {
                for _ in 0..<increments { counter.withLock { $0 += 1 } }
                finished.withLock { $0 += 1 }
            }.start()
        }
        let done = finished.withLock(when: { $0 == threads }) { $0 }
        #expect(done == threads)
        #expect(counter.withLock { $0 } == threads * increments)
    }

    @Test("a thread waiting for a condition wakes when another thread's change makes it hold, and not before")
    func waiterWakesWhenTheConditionHolds() {
        let value = Locked([Int]())
        let seen = Locked<[Int]?>(nil)
        Thread {
            let observed = value.withLock(when: { $0.count >= 5 }) { $0 }
            seen.withLock { $0 = observed }
        }.start()
        for step in 0..<5 {
            // Before the fifth step the waiter's condition cannot hold, so it has seen nothing.
            #expect(seen.withLock { $0 } == nil)
            value.withLock { $0.append(step) }
        }
        let observed = seen.withLock(when: { $0 != nil }) { $0 }
        #expect(observed == [0, 1, 2, 3, 4])
    }

    @Test("what the body throws reaches the caller, and the lock is free again")
    func thrownErrorsPassThrough() {
        struct Refused: Error {}
        let value = Locked(1)
        #expect(throws: Refused.self) { try value.withLock { _ throws(Refused) in throw Refused() } }
        #expect(value.withLock { $0 } == 1)
    }
}
