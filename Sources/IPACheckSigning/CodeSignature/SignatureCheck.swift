/// The verdict for a whole file (every slice).
package struct SignatureCheck: Hashable, Sendable {
    /// One result per slice, in file order.
    package let slices: [SliceSignatureCheck]

    /// Whether every slice's signature holds: `ipacheck verify` exits 0 only then.
    package var isValid: Bool { !slices.isEmpty && slices.allSatisfy(\.isValid) }

    /// Every problem and note, slice by slice.
    package var problems: [SigningProblem] { slices.flatMap { $0.problems + $0.notes } }
}
