import Dispatch
import Foundation

/// URLs from the command line and a list file, handed out in groups of batches that are worked on by every core at
/// once and come back in order: what lets `match --urls` use all cores while holding only a few batches.
public enum URLBatches {
    /// One URL and the list line it came from (nil for a command-line URL).
    public typealias Entry = (url: String, line: Int?)

    /// URLs in one batch.
    public static let batchSize = 4096

    /// Threads that work on a group: one per core, at most eight.
    public static let threads = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8)

    /// Calls `body` with each group of at most `2 × threads` batches, in order: first the command-line URLs, then
    /// the file's.
    ///
    /// - Throws: What reading the file or `body` throws.
    public static func forEachGroup(
        urls: [String],
        list: URLListFile?,
        _ body: ([[Entry]]) throws -> Void
    ) throws {
        var group: [[Entry]] = []
        var batch: [Entry] = []
        batch.reserveCapacity(batchSize)
        func add(_ entry: Entry) throws {
            batch.append(entry)
            guard batch.count == batchSize else { return }
            group.append(batch)
            batch.removeAll(keepingCapacity: true)
            if group.count == 2 * threads {
                try body(group)
                group.removeAll(keepingCapacity: true)
            }
        }
        for url in urls { try add((url, nil)) }
        try list?.forEachURL { url, line in try add((url, line)) }
        if !batch.isEmpty { group.append(batch) }
        if !group.isEmpty { try body(group) }
    }

    /// `transform` applied to every batch of `group` on all cores, the results in the group's order.
    public static func map<Result: Sendable>(
        _ group: [[Entry]],
        _ transform: @Sendable ([Entry]) -> Result
    ) -> [Result] {
        let slots = Slots<Result>(count: group.count)
        DispatchQueue.concurrentPerform(iterations: group.count) { index in
            slots.set(index, transform(group[index]))
        }
        return slots.values
    }

    /// One result slot per batch, filled from several threads.
    private final class Slots<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [Value?]

        init(count: Int) { storage = Array(repeating: nil, count: count) }

        func set(_ index: Int, _ value: Value) { lock.withLock { storage[index] = value } }

        var values: [Value] { lock.withLock { storage.compactMap { $0 } } }
    }
}
