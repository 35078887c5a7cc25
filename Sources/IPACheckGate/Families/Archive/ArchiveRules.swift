package import IPACheckReport

/// Rules about the archive's own structure: what iOS would refuse or what we refuse to follow.
///
/// A rule that describes an archive iOS refuses to install (ARC003, ARC004, ARC007–ARC009, ARC012) is an error, so
/// it fails every distribution gate; the others are warnings or notes about what was read.
package enum ArchiveRules {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .archive }

        /// The set, its rules as declared below.
        package init() {}

        /// A member name that escapes the archive (`..`, absolute path, backslash, NUL).
        package let unsafeMemberPath = Rule(
            "ARC001",
            .error,
            "unsafe member path",
            summary: "A member's name is absolute, names a drive, climbs out of the archive with `..`, or holds a "
                + "`..` segment, a backslash or a NUL: a path-traversal trick, or a name extractors read "
                + "differently, so what an installer writes cannot be known. The member is reported and not read, "
                + "and no gate passes the archive.",
            fix: "Rebuild the ipa with Xcode or `xcodebuild -exportArchive`; never hand-zip with absolute paths."
        )

        /// The same name stored twice.
        package let duplicateMember = Rule(
            "ARC002",
            .error,
            "duplicate member",
            summary: "Two members have the same name. Sequential extractors (`unzip -o`, Python's zipfile, a "
                + "streaming unzip) keep the last copy, which is the one ipacheck reads; which copy iOS's installer "
                + "keeps is not documented, so what is checked may not be what installs, and no gate passes it.",
            fix: "Rebuild the ipa from a clean export folder."
        )

        /// Two names that differ only in case.
        package let caseCollision = Rule(
            "ARC013",
            .warning,
            "names differ only in case",
            summary: "Two members' names differ only in letter case. On a case-insensitive file system (a Mac's "
                + "default) one hides the other when the ipa is unpacked, so a tool there may check another file "
                + "than the one ipacheck read. Both are read here as they are stored.",
            fix: "Rename one of the files, or remove the stray copy, and rebuild the ipa."
        )

        /// An encrypted or oddly compressed member: iOS cannot extract it, so the ipa does not install.
        package let unreadableMember = Rule(
            "ARC003",
            .error,
            "member cannot be read",
            summary: "A member is encrypted or uses a compression method that cannot be decompressed here; ipas use "
                + "plain deflate, and iOS's installer cannot extract such a member either, so it refuses the ipa. "
                + "Anything it holds is not checked.",
            fix: "Re-export the ipa; do not post-process it with tools that change compression or encrypt members."
        )

        /// `Payload/` is not at the archive's root: iOS does not install the ipa.
        package let nestedPayload = Rule(
            "ARC004",
            .error,
            "Payload folder is not at the archive root",
            summary: "The app sits in `SOMEFOLDER/Payload/X.app`; iOS installs only archives whose `Payload/` is at "
                + "the root and refuses this one, whatever the distribution. The app is read anyway so its links can "
                + "be checked.",
            fix: "Zip the export folder's contents, not the folder itself (`cd export && zip -r ../App.ipa Payload`)."
        )

        /// More than one app under `Payload/`.
        package let severalApps = Rule(
            "ARC005",
            .warning,
            "several apps in Payload",
            summary: "An ipa holds exactly one app under `Payload/`; with several, which one installs is undefined. "
                + "The first in name order is checked.",
            fix: "Export one app per ipa."
        )

        /// A member name that is not UTF-8.
        package let nonUTF8Name = Rule(
            "ARC006",
            .note,
            "member name is not UTF-8",
            summary: "A member's name is stored in a legacy encoding, or marked UTF-8 (flag bit 11) over bytes "
                + "that are not UTF-8; it was decoded by guessing (CP437). Some zip libraries refuse such an "
                + "archive, unzip reads it; what iOS's installer does with the name is not documented.",
            fix: "Rebuild the ipa with a zip tool that writes UTF-8 names."
        )

        /// A nested bundle without a readable Info.plist.
        package let bundleInfoPlist = Rule(
            "ARC007",
            .error,
            "bundle Info.plist missing or malformed",
            summary: "A nested bundle (extension, App Clip, watch app, framework) has no readable Info.plist; iOS "
                + "rejects the install.",
            fix: "Check the target's build settings (INFOPLIST_FILE / GENERATE_INFOPLIST_FILE) and re-export."
        )

        /// Info.plist names an executable that is not in the bundle.
        package let missingExecutable = Rule(
            "ARC008",
            .error,
            "executable missing",
            summary: "Info.plist's `CFBundleExecutable` names a file the bundle does not contain, so there is no "
                + "code signature to read and iOS will not launch it.",
            fix: "Check CFBundleExecutable against the product name and re-export."
        )

        /// A nested bundle's executable is not a readable Mach-O.
        package let unreadableExecutable = Rule(
            "ARC009",
            .error,
            "executable is not a readable Mach-O",
            summary: "A bundle's executable is truncated or not a Mach-O, so its signature and entitlements "
                + "cannot be read; iOS will refuse to install or launch it.",
            fix: "Re-export the build; check that no post-processing step rewrote the binary."
        )

        /// A local header (or data descriptor) disagrees with the central directory (``ZipConsistency``).
        package let inconsistentDirectory = Rule(
            "ARC010",
            .error,
            "local headers disagree with the central directory",
            summary: "A member's local header names another file, another compression, CRC or size than the central "
                + "directory, its data descriptor does, or two members share bytes. A streaming extractor (iOS "
                + "installs an ipa by streaming it) reads the local headers, ipacheck the central directory, so what "
                + "installs may not be what was checked. Layouts APPNOTE allows (a data descriptor with zeros, or "
                + "with the values already in the local header) are not this.",
            fix: "Re-export the ipa from Xcode, or re-zip the export folder (`ditto -c -k --sequesterRsrc`)."
        )

        /// A symbolic link of a bundle folder points outside the bundle.
        package let linkLeavesBundle = Rule(
            "ARC012",
            .error,
            "symbolic link leaves the bundle",
            summary: "A symbolic link in the .app points to a path outside the bundle (absolute, or climbing above "
                + "it with `..`). ipacheck never follows it; on a device the target does not exist, and installers "
                + "and codesign refuse such bundles.",
            fix: "Replace the link with the file it points to, or point it at a path inside the bundle."
        )

        /// A member stopped decompressing in the middle (CRC error, truncated data), found by the seal pass.
        package let unreadableSealedMember = Rule(
            "ARC011",
            .error,
            "member damaged",
            summary: "A member of the archive could not be decompressed to its end (a CRC error or truncated data), so "
                + "what it holds was not checked; an installer rejects such an ipa.",
            fix: "Export the ipa again; check that the upload or download did not damage it.",
            needs: [.membersReadToTheEnd]
        )
    }

    /// The rules declared here.
    package static let rules = Rules()

    /// The rules opening an ipa can raise: all but ARC011, which only the pass that reads every member to its end
    /// (`check`, `verify`) can.
    package static var raisedWhenOpened: [Rule] {
        rules.all.filter { !$0.needs.contains(.membersReadToTheEnd) }
    }
}
