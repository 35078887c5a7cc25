package import IPACheckReport

extension IPAFile {
    /// Finds a bundle by its folder path, folder name (`Share.appex`) or bundle ID; nil selects the main app.
    ///
    /// - Throws: ``InputError`` naming the bundles there are when nothing matches.
    package func bundle(matching selector: String?) throws(InputError) -> AppBundle {
        guard let selector, !selector.isEmpty else { return mainApp }
        let trimmed = selector.hasSuffix("/") ? String(selector.dropLast()) : selector
        let match =
            bundles.first { $0.path == trimmed } ?? bundles.first { $0.bundleID == trimmed }
            ?? bundles.first { $0.path.hasSuffix("/" + trimmed) }
        guard let match else {
            let known = bundles.map { "\($0.path) (\($0.bundleID ?? "no ID"))" }.joined(separator: ", ")
            throw InputError("no-such-bundle", file: path, "no bundle matches \(selector); bundles: \(known)")
        }
        return match
    }
}
