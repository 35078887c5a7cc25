package import Foundation

/// Locates the shared corpus of real ipas, Mach-Os, profiles and AASA files (`../shared/corpus`).
///
/// The corpus is not part of this repository (real profiles carry personal data). Tests that need it are
/// enabled only when it is present, and say so by name, so a missing corpus shows up as skipped, never as passed.
package enum Corpus {
    /// The corpus folder: `$IPACHECK_CORPUS`, or `../shared/corpus` beside the repository.
    package static let root: URL = {
        if let override = ProcessInfo.processInfo.environment["IPACHECK_CORPUS"] {
            return URL(fileURLWithPath: override)
        }
        return Repository.root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }()

    /// Whether the corpus is present.
    package static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("MANIFEST.tsv").path)
    }

    /// The reason shown when a corpus test is skipped.
    package static let absentReason = "the shared corpus (../shared/corpus or $IPACHECK_CORPUS) is absent"

    /// The URL of a corpus file, such as `url("ipa/fastlane_iOSAppOnly.ipa")`.
    package static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// The bytes of a corpus file.
    package static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url(relativePath)))
    }
}

/// The repository checkout the tests run from.
package enum Repository {
    /// The repository's root folder (the one holding Package.swift).
    package static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        // Tests/Support/Corpus.swift -> repository root
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// The `Samples/` folder.
    package static var samples: URL { root.appendingPathComponent("Samples") }
}
