import IPACheckArchive
package import IPACheckPlist

/// Reading a seal: whole (binary or XML) or as it streams out of the archive, entry by entry, keeping only the
/// digest each file is compared with; and compiling its omit rules.
extension ResourceSeal {
    /// Parses the bytes of `_CodeSignature/CodeResources`, accepting at most `maximumEntries` files (the archive's
    /// member cap by default: a seal lists files of the archive, and each costs memory while it is checked).
    ///
    /// - Throws: ``CodeSignatureError`` when the seal is not a plist with `files2` or `files`, or lists more files.
    package static func parse(
        _ codeResources: [UInt8],
        maximumEntries: Int = ArchiveLimits.standard.maximumEntries
    ) throws(CodeSignatureError) -> ResourceSeal {
        if XMLPlistReader.looksLikeXML(codeResources) {
            return try parseXML(codeResources, maximumEntries: maximumEntries)
        }
        let plist: PlistValue
        do {
            plist = try PlistParser.parse(codeResources)
        } catch {
            throw CodeSignatureError("CodeResources", error.reason)
        }
        guard let files = (plist["files2"] ?? plist["files"])?.dictionaryValue else {
            throw CodeSignatureError("CodeResources", "it has no files2 or files dictionary")
        }
        guard files.count <= maximumEntries else {
            throw CodeSignatureError("CodeResources", "it lists \(files.count) files (at most \(maximumEntries))")
        }
        let entries = SealEntries(files.mapValues(entry))
        let (omitRules, unevaluated) = compileOmitRules(plist["rules2"] ?? plist["rules"])
        return ResourceSeal(entries: entries, unevaluatedOmitRules: unevaluated, omitRules: omitRules)
    }

    /// An XML seal (what codesign writes), read entry by entry.
    ///
    /// A large app's seal lists every file twice (`files`, `files2`), and building it whole through libplist took
    /// about a kilobyte a file (100 MB for 100,000 files). `files` is read only when there is no `files2`.
    private static func parseXML(_ bytes: [UInt8], maximumEntries: Int) throws(CodeSignatureError) -> ResourceSeal {
        let parsed = try parseXML(maximumEntries: maximumEntries, eachEntry: nil) { () throws(PlistError) in
            try XMLPlistReader(bytes)
        }
        guard case .parsed(let seal) = parsed else { throw CodeSignatureError("CodeResources", "it cannot be read") }
        return seal
    }

    /// An XML seal pulled from a stream a chunk at a time, never held whole (a million-file seal is 300 MB of
    /// text).
    ///
    /// `open` gives a fresh pull of the document each time it is called (a second pass reads `files` when there is
    /// no `files2`). A document that does not look like XML is for ``parse(_:maximumEntries:)``.
    ///
    /// - Throws: ``CodeSignatureError`` as ``parse(_:maximumEntries:)`` does, and with the stream's own reason when
    ///   it cannot be read to its end or passes `maximumBytes`.
    package static func parseXML(
        pulling open: () -> (() -> XMLPlistInput.PullResult),
        maximumEntries: Int = ArchiveLimits.standard.maximumEntries,
        maximumBytes: Int = PlistParser.maximumSize
    ) throws(CodeSignatureError) -> ResourceSeal {
        let parsed = try parseXML(maximumEntries: maximumEntries, eachEntry: nil) { () throws(PlistError) in
            try XMLPlistReader(pulling: open(), maximumSize: maximumBytes)
        }
        guard case .parsed(let seal) = parsed else {
            throw CodeSignatureError("CodeResources", "it cannot be read")
        }
        return seal
    }

    /// What reading a seal while its files are handed out gave.
    package enum StreamedParse {
        /// The seal, its ``entries`` holding only nested code and links: every file entry went to the caller.
        case parsed(ResourceSeal)
        /// The caller declined an entry (`eachEntry` returned false), or the document names its files twice: read
        /// it whole instead, with ``parseXML(pulling:maximumEntries:maximumBytes:)``.
        case needsWholeRead
    }

    /// An XML seal pulled from a stream, each entry handed to `eachEntry` as it is read and its file entries not
    /// kept, so that a million-file seal is compared with the archive in the memory of a few entries.
    ///
    /// Nested code and links, which are few, also stay in the seal's ``entries``. `eachEntry` may decline an entry
    /// (return false): a seal whose paths are not in ascending order may list a path twice (as a file, or as a file
    /// and nested code), and only a whole read gives the later entry as a dictionary does.
    ///
    /// - Throws: ``CodeSignatureError`` as ``parseXML(pulling:maximumEntries:maximumBytes:)`` does.
    package static func parseXML(
        pulling open: () -> (() -> XMLPlistInput.PullResult),
        maximumEntries: Int,
        maximumBytes: Int,
        eachEntry: (String, Entry) -> Bool
    ) throws(CodeSignatureError) -> StreamedParse {
        try withoutActuallyEscaping(eachEntry) { eachEntry throws(CodeSignatureError) in
            try parseXML(maximumEntries: maximumEntries, eachEntry: eachEntry) { () throws(PlistError) in
                try XMLPlistReader(pulling: open(), maximumSize: maximumBytes)
            }
        }
    }

    private static func parseXML(
        maximumEntries: Int,
        eachEntry: ((String, Entry) -> Bool)?,
        reader makeReader: () throws(PlistError) -> XMLPlistReader
    ) throws(CodeSignatureError) -> StreamedParse {
        var declined = false
        func read(_ wanted: Set<String>) throws(PlistError) -> (files: SealEntries?, rules: [String: PlistValue]) {
            var files: SealEntries?
            var rules: [String: PlistValue] = [:]
            var reader = try makeReader()
            do {
                try reader.forEachEntry { key, reader throws(PlistError) in
                    guard wanted.contains(key) else { return try reader.skipValue() }
                    guard key.hasPrefix("files") else {
                        rules[key] = try reader.readValue()
                        return
                    }
                    // A second files dictionary replaces the first, which the caller has already been given.
                    if eachEntry != nil, files != nil {
                        declined = true
                        throw PlistError("it lists its files twice")
                    }
                    var entries = SealEntries.Builder()
                    var count = 0
                    try reader.forEachEntry { path, reader throws(PlistError) in
                        let entry = entry(try reader.readValue())
                        count += 1
                        guard count <= maximumEntries else {
                            throw PlistError("it lists more than \(maximumEntries) files")
                        }
                        guard let eachEntry else { return entries.add(path, entry) }
                        if !eachEntry(path, entry) {
                            declined = true
                            throw PlistError("declined")
                        }
                        if case .file = entry { return }
                        entries.add(path, entry)
                    }
                    files = entries.finish()
                }
                try reader.finish()
            } catch {
                if declined { throw error }
                // A stream that ended early (a NUL byte, a read error) is reported for what it is.
                throw reader.inputFailure ?? error
            }
            return (files, rules)
        }
        do {
            var (files, rules) = try read(["files2", "rules", "rules2"])
            if files == nil { files = try read(["files"]).files }
            guard let files else { throw CodeSignatureError("CodeResources", "it has no files2 or files dictionary") }
            let (omitRules, unevaluated) = compileOmitRules(rules["rules2"] ?? rules["rules"])
            return .parsed(ResourceSeal(entries: files, unevaluatedOmitRules: unevaluated, omitRules: omitRules))
        } catch let error as CodeSignatureError {
            throw error
        } catch {
            if declined { return .needsWholeRead }
            throw CodeSignatureError("CodeResources", (error as? PlistError)?.reason ?? "\(error)")
        }
    }

    /// What the seal says about one path.
    private static func entry(_ value: PlistValue) -> Entry {
        if value["cdhash"] != nil || value["requirement"] != nil {
            return .nestedCode(cdhash: value["cdhash"]?.dataValue)
        }
        if let target = value["symlink"]?.stringValue { return .symlink(target: target) }
        // Only the digest that is compared is kept: SHA-256 when the seal has it (a digest a file, not two, over a
        // hundred thousand files).
        let sha256 = value["hash2"]?.dataValue
        return .file(
            sha1: sha256 == nil ? value["hash"]?.dataValue ?? value.dataValue : nil,
            sha256: sha256,
            optional: value["optional"]?.boolValue ?? false
        )
    }

    /// The `omit` rules of `rules2` (or `rules`), compiled in key order, and the ones that cannot be evaluated.
    private static func compileOmitRules(_ rules: PlistValue?) -> ([SealRuleRegex], [UnevaluatedRule]) {
        guard let rules = rules?.dictionaryValue else { return ([], []) }
        let patterns = rules.filter { $0.value["omit"]?.boolValue == true }.keys.sorted()
        var compiled: [SealRuleRegex] = []
        var unevaluated: [UnevaluatedRule] = []
        var totalProgramSize = 0
        for (index, pattern) in patterns.enumerated() {
            guard index < maximumOmitRules else {
                unevaluated.append(
                    UnevaluatedRule(pattern: pattern, reason: "beyond the \(maximumOmitRules) rules ipacheck evaluates")
                )
                continue
            }
            do {
                let rule = try SealRuleRegex(pattern)
                // Both terms are at most their caps, so the sum cannot overflow.
                guard totalProgramSize + rule.programSize <= maximumTotalProgramSize else {
                    unevaluated.append(
                        UnevaluatedRule(
                            pattern: pattern,
                            reason: "the omit rules together compile to more than \(maximumTotalProgramSize) "
                                + "instructions"
                        )
                    )
                    continue
                }
                totalProgramSize += rule.programSize
                compiled.append(rule)
            } catch {
                unevaluated.append(UnevaluatedRule(pattern: pattern, reason: error.reason))
            }
        }
        return (compiled, unevaluated)
    }
}
