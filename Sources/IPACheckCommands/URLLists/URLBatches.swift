import Foundation
import IPACheckConcurrency

/// URLs from the command line and a list file, cut into batches that every core works on while the next ones are
/// read, the results handed back in order: what lets `match --urls` use all cores while holding only a few batches.
package enum URLBatches {
    /// A run of URLs, kept as the bytes read: one buffer a batch, so that the reading thread allocates nothing per
    /// URL and each worker makes (and frees) its URLs' strings itself.
    package struct Batch: Sendable {
        private var bytes: [UInt8] = []
        /// Where each URL ends in `bytes` (each starts where the one before ends).
        private var ends: [Int] = []
        /// The list line of each URL; 0 for a command-line URL.
        private var lines: [Int] = []

        /// The number of URLs.
        package var count: Int { ends.count }

        mutating func append(_ url: ArraySlice<UInt8>, line: Int?) {
            bytes.append(contentsOf: url)
            ends.append(bytes.count)
            lines.append(line ?? 0)
        }

        mutating func reserveCapacity(_ urls: Int) {
            bytes.reserveCapacity(urls * 64)
            ends.reserveCapacity(urls)
            lines.reserveCapacity(urls)
        }

        /// `transform` applied to each URL and its list line (nil for a command-line URL), in order.
        package func map<T>(_ transform: (_ url: String, _ line: Int?) throws -> T) rethrows -> [T] {
            var results: [T] = []
            results.reserveCapacity(ends.count)
            try forEachURL { bytes, line in results.append(try transform(String(decoding: bytes, as: UTF8.self), line))
            }
            return results
        }

        /// Calls `body` with the bytes of each URL and its list line (nil for a command-line URL), in order.
        package func forEachURL(_ body: (_ url: ArraySlice<UInt8>, _ line: Int?) throws -> Void) rethrows {
            var start = 0
            for (end, line) in zip(ends, lines) {
                try body(bytes[start..<end], line == 0 ? nil : line)
                start = end
            }
        }
    }

    /// URLs in one batch.
    package static let batchSize = 4096

    /// Batches being worked on at once: two per core (at most eight cores), so that no core waits for the reader
    /// or the writer, and memory stays a few batches whatever the list's length.
    package static let batchesInFlight = 2 * min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8)

    /// Applies `transform` to every batch of URLs (first the command-line URLs, then the file's) on all cores, and
    /// calls `consume` with the results in the URLs' order, on the calling thread, while later batches are read
    /// and transformed.
    ///
    /// When reading or `consume` throws, no further result is consumed (batches already started finish on their
    /// own and are dropped).
    ///
    /// - Throws: What reading the file or `consume` throws.
    package static func forEachResult<Result: Sendable>(
        urls: [String],
        list: URLListFile?,
        transform: @escaping @Sendable (Batch) -> Result,
        _ consume: (Result) throws -> Void
    ) throws {
        let workers = Workers(count: batchesInFlight / 2)
        defer { workers.finish() }
        var pending: [Pending<Result>] = []
        func consumeOldest() throws {
            try consume(pending.removeFirst().wait())
        }
        func start(_ batch: Batch) throws {
            if pending.count >= batchesInFlight { try consumeOldest() }
            let result = Pending<Result>()
            pending.append(result)
            workers.run { result.fulfil(transform(batch)) }
        }
        var batch = Batch()
        batch.reserveCapacity(batchSize)
        func add(_ url: ArraySlice<UInt8>, line: Int?) throws {
            batch.append(url, line: line)
            guard batch.count == batchSize else { return }
            try start(batch)
            batch = Batch()
            batch.reserveCapacity(batchSize)
        }
        for url in urls { try add(Array(url.utf8)[...], line: nil) }
        try list?.forEachURLBytes { url, line in try add(url, line: line) }
        if batch.count > 0 { try start(batch) }
        while !pending.isEmpty { try consumeOldest() }
    }

    /// Threads of our own that run jobs in order of arrival.
    ///
    /// Not Dispatch's global queues: on Linux, Dispatch cannot see that the thread reading the list is blocked
    /// waiting for results, counts it as busy and so starts one worker too few (measured on two cores: one worker
    /// did three quarters of the work).
    private final class Workers: Sendable {
        /// The jobs not yet taken, and whether more may come.
        private struct Queue {
            var jobs: [@Sendable () -> Void] = []
            var finished = false
        }

        private let queue = Locked(Queue())

        init(count: Int) {
            for _ in 0..<max(count, 1) {
                let thread = Thread { [self] in work() }
                thread.name = "ipacheck-match"
                thread.start()
            }
        }

        func run(_ job: @escaping @Sendable () -> Void) {
            queue.withLock { $0.jobs.append(job) }
        }

        /// Lets the threads end once the jobs given so far are done.
        func finish() {
            queue.withLock { $0.finished = true }
        }

        private func work() {
            while let job = next() { job() }
        }

        /// The oldest job, waiting for one; `nil` once the queue is finished and empty.
        private func next() -> (@Sendable () -> Void)? {
            queue.withLock(when: { !$0.jobs.isEmpty || $0.finished }) { queue in
                queue.jobs.isEmpty ? nil : queue.jobs.removeFirst()
            }
        }
    }

    /// The result of one batch, filled on a worker thread and waited for on the reading one.
    private struct Pending<Value: Sendable>: Sendable {
        /// Empty until the batch is done.
        private let slot = Locked<Value?>(nil)

        func fulfil(_ value: Value) {
            slot.withLock { $0 = value }
        }

        func wait() -> Value {
            let value = slot.withLock(when: { $0 != nil }) { $0.take() }
            // Waited for until it was there.
            guard let value else { preconditionFailure("a batch result was taken without a value") }
            return value
        }
    }
}
