import Foundation
import IPACheckBinary
import IPACheckCMS

/// Each CodeDirectory against the bytes it seals: its code pages and its special slots.
extension SignatureVerifier {
    /// `the primary CodeDirectory (sha1)`, `the alternate CodeDirectory (sha256)`: how findings name one.
    static func describe(_ directory: CodeDirectory) -> String {
        let kind = directory.slot == CodeSignSlot.codeDirectory.rawValue ? "primary" : "alternate"
        let hash = directory.hashType?.name ?? "hash type \(directory.rawHashType)"
        return "the \(kind) CodeDirectory (\(hash))"
    }

    static func check(
        _ directory: CodeDirectory,
        signature: CodeSignature,
        pages: CodePageDigests?,
        infoPlist: SealedFile,
        codeResources: SealedFile,
        encryption: EncryptionInfo? = nil,
        arch: String,
        context: Context
    ) -> DirectoryResult {
        var problems: [SigningProblem] = []
        var notes: [SigningProblem] = []
        let name = describe(directory)
        let capitalized = name.prefix(1).uppercased() + name.dropFirst()
        guard let hashType = directory.hashType else {
            problems.append(
                context.problem(
                    .codeDirectoryInvalid,
                    "\(capitalized) uses a hash type ipacheck does not know.",
                    slice: arch
                )
            )
            return DirectoryResult(
                check: CodeDirectoryCheck(
                    slot: directory.slot,
                    hashType: "type \(directory.rawHashType)",
                    cdhash: "",
                    identifier: directory.identifier,
                    teamID: directory.teamID,
                    flags: directory.flags,
                    codePageCount: 0,
                    modifiedPages: [],
                    specialSlots: []
                ),
                problems: problems,
                notes: notes,
                pagesCompared: false,
                encryptedPages: 0
            )
        }

        // Code pages: [0, codeLimit) in pages of 2^pageSize; the last page may be short.
        var modified: [Int] = []
        var pageCount = 0
        var compared = false
        // FairPlay-encrypted pages are compared as they are: the CodeDirectory hashes the encrypted bytes, which
        // iOS checks before it decrypts a page (XNU vm_apple_protect.c, apple_protect_pager_data_request).
        var encrypted = 0..<0
        let sliceLength = pages?.slice.count ?? 0
        if let limit = Int(exactly: directory.codeLimit), limit <= sliceLength {
            let pageSize = directory.pageSize ?? max(limit, 1)
            pageCount = limit == 0 ? 0 : (limit - 1) / pageSize + 1
            if let encryption, encryption.isEncrypted {
                encrypted = encryption.pages(pageSize: pageSize, pageCount: pageCount)
            }
            if pageCount != directory.codeSlotCount {
                problems.append(
                    context.problem(
                        .codeDirectoryInvalid,
                        "\(capitalized) has \(directory.codeSlotCount) code slots, but its code limit of \(limit) "
                            + "bytes makes \(pageCount) pages.",
                        slice: arch
                    )
                )
            } else if pageSize != CodePageDigests.pageSize || hashType == .sha384
                || (0..<pageCount).contains(where: { pages?.digest(hashType, page: $0, codeLimit: limit) == nil })
            {
                let encryptedWords =
                    encrypted.isEmpty ? "" : ", \(encrypted.count) of them FairPlay-encrypted, none decrypted either"
                notes.append(
                    context.problem(
                        .codePagesNotChecked,
                        "The code pages of \(name) were not checked (pages of \(pageSize) bytes, code limit \(limit), "
                            + "signature at \(pages?.hashedLength ?? 0)\(encryptedWords)).",
                        slice: arch
                    )
                )
            } else {
                compared = true
                for page in 0..<pageCount {
                    let taken = pages?.digest(hashType, page: page, codeLimit: limit)
                    if let taken, let stored = directory.codeSlotHash(page), taken.elementsEqual(stored) { continue }
                    modified.append(page)
                }
            }
        } else {
            problems.append(
                context.problem(
                    .codeDirectoryInvalid,
                    "\(capitalized) seals \(directory.codeLimit) bytes of code, more than the \(sliceLength)-byte "
                        + "slice holds.",
                    slice: arch
                )
            )
        }
        if !modified.isEmpty {
            let list = modified.prefix(10).map(String.init).joined(separator: ", ")
            let inEncrypted = modified.filter { encrypted.contains($0) }.count
            let encryptedWords =
                inEncrypted == 0
                ? ""
                : " \(inEncrypted) of them lie in the FairPlay-encrypted range, whose hashes are of the encrypted "
                    + "bytes: pages decrypted or altered after signing no longer match."
            problems.append(
                context.problem(
                    .codePageModified,
                    "\(modified.count) of \(pageCount) code pages differ from \(name) (pages \(list)"
                        + (modified.count > 10 ? ", …" : "") + ")." + encryptedWords,
                    slice: arch
                )
            )
        }

        // Special slots.
        func blobFile(_ slot: CodeSignSlot) -> SealedFile {
            signature.blob(slot).map { .file(FileDigests(of: $0.bytes)) } ?? .missing
        }
        let sealed: [(Int, String, SealedFile)] = [
            (1, "Info.plist", infoPlist),
            (2, "requirements", blobFile(.requirements)),
            (3, "CodeResources", codeResources),
            (5, "entitlements", blobFile(.entitlements)),
            (7, "DER entitlements", blobFile(.derEntitlements)),
        ]
        var slots: [SpecialSlotCheck] = []
        for (slot, slotName, file) in sealed {
            let stored = directory.specialSlotHash(slot)
            let bound = stored.map { $0.contains { $0 != 0 } } ?? false
            let status: SpecialSlotCheck.Status
            switch (bound, file) {
            case (true, .file(let digests)):
                status = digests.digest(for: hashType) == stored.map(Array.init) ? .valid : .modified
            case (true, .missing): status = .missing
            case (true, .notChecked): status = .notChecked
            case (false, .file):
                // A blob in the SuperBlob that no slot seals can be swapped freely; a bundle file is only advisory.
                status = slot == 1 || slot == 3 ? .notBound : .unsealed
            case (false, _): status = .notBound
            }
            if stored == nil, status == .notBound { continue }
            slots.append(SpecialSlotCheck(slot: slot, name: slotName, status: status))
            switch status {
            case .modified:
                problems.append(
                    context.problem(
                        .specialSlotBroken,
                        "\(slotName) was modified after signing: it does not match \(name).",
                        slice: arch
                    )
                )
            case .missing:
                problems.append(
                    context.problem(
                        .specialSlotBroken,
                        "\(slotName) is sealed by \(name) but missing.",
                        slice: arch
                    )
                )
            case .unsealed:
                problems.append(
                    context.problem(
                        .specialSlotBroken,
                        "The \(slotName) blob is present but not sealed by \(name).",
                        slice: arch
                    )
                )
            case .notChecked:
                notes.append(
                    context.problem(
                        .slotNotChecked,
                        "\(slotName), sealed by \(name), was not available to check.",
                        slice: arch
                    )
                )
            case .valid, .notBound:
                break
            }
        }
        return DirectoryResult(
            check: CodeDirectoryCheck(
                slot: directory.slot,
                hashType: hashType.name,
                cdhash: Hex.encode(CodeHash.digest(hashType, directory.bytes)),
                identifier: directory.identifier,
                teamID: directory.teamID,
                flags: directory.flags,
                codePageCount: pageCount,
                modifiedPages: modified,
                specialSlots: slots
            ),
            problems: problems,
            notes: notes,
            pagesCompared: compared,
            encryptedPages: compared ? encrypted.count : 0
        )
    }
}
