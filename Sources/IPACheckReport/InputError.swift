import Foundation

/// An input that could not be read or is not what it claims (exit code 2).
///
/// The CLI prints it as one line, `FILE: what is wrong`, so a person sees at once which file to look at.
package struct InputError: Error, Hashable, CustomStringConvertible, Sendable {
    /// A stable, kebab-case code for scripts and tests (`not-a-zip`, `no-app-bundle`).
    package let code: String
    /// The file the problem is in, as the user named it.
    package let file: String
    /// What is wrong, in one sentence, on one line.
    package let message: String

    /// Creates an error; a line feed in `message` (from a name inside the input: a zip member may be called
    /// anything) is written as a visible escape, so the error stays the one line the CLI promises.
    package init(_ code: String, file: String, _ message: String) {
        self.code = code
        self.file = file
        self.message = message.contains("\n") ? UntrustedText.visibleOnOneLine(message) : message
    }

    /// The one line the CLI prints, such as `App.ipa: not a zip archive`.
    package var description: String { "\(file): \(message)" }

    /// Why the file at `path` cannot be opened for reading, in the one wording every command uses: `no such file`,
    /// or `cannot be read: ` and the system's reason in words (``FileProblem``), asked of open(2) itself.
    package static func unreadableFile(_ path: String) -> InputError {
        let descriptor = unsafe open(path, O_RDONLY)
        let code = descriptor < 0 ? errno : EIO
        if descriptor >= 0 { close(descriptor) }
        if code == ENOENT { return InputError("unreadable", file: path, "no such file") }
        return InputError("unreadable", file: path, "cannot be read: " + FileProblem.words(posix: code))
    }
}

/// What went wrong with a file, in words: Foundation's and the C library's file errors (`NSCocoaErrorDomain` 260,
/// `ENOENT`, `EACCES`, …) as a phrase a person can act on, never `Error Domain=…` or an errno tuple.
package enum FileProblem {
    /// A phrase for `error`, to follow `cannot read FILE:` (`no such file`, `permission denied: …`).
    ///
    /// Errors that are not file-system errors get a generic phrase rather than a dump of their type.
    package static func words(_ error: any Error) -> String {
        if let code = posixCode(of: error) { return words(posix: code) }
        let ns = error as NSError
        if ns.domain == NSCocoaErrorDomain {
            switch CocoaError.Code(rawValue: ns.code) {
            case .fileNoSuchFile, .fileReadNoSuchFile: return words(posix: ENOENT)
            case .fileReadNoPermission, .fileWriteNoPermission: return words(posix: EACCES)
            case .fileReadTooLarge: return "the file is too large to read"
            case .fileReadCorruptFile: return "the file's contents are damaged"
            case .fileReadInapplicableStringEncoding: return "the file is not text in a known encoding"
            case .fileWriteOutOfSpace: return words(posix: ENOSPC)
            case .fileWriteVolumeReadOnly: return words(posix: EROFS)
            case .fileWriteFileExists: return words(posix: EEXIST)
            case .fileWriteInvalidFileName: return "the file name is not valid here"
            default: break
            }
        }
        return "the system refused the operation without saying why"
    }

    /// A phrase for the C library's `errno` value `code`.
    package static func words(posix code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied (this user may not open it; check its permissions)"
        case EISDIR: "it is a folder, not a file"
        case ENOTDIR: "a part of the path is not a folder"
        case ELOOP: "too many symbolic links (a link points back to itself)"
        case ENAMETOOLONG: "the path is too long"
        case EIO: "the disk or file system failed while reading it (an input/output error)"
        case ENOSPC: "the disk is full"
        case EROFS: "the disk is read-only"
        case EEXIST: "a file with that name already exists"
        case EMFILE, ENFILE: "too many files are open"
        case ENXIO, ENODEV: "the device behind the path is not there"
        case EBUSY: "the file is busy"
        case EAGAIN: "the file is not ready to be read (try again)"
        default: lowerCased(unsafe String(cString: strerror(code)))  // a NUL-terminated C string, copied at once
        }
    }

    /// The POSIX code of `error` or of the error it wraps (Foundation wraps one in `NSUnderlyingErrorKey`).
    private static func posixCode(of error: any Error) -> Int32? {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: ns.code) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(truncatingIfNeeded: underlying.code)
        }
        return nil
    }

    /// `No such device` → `no such device`.
    private static func lowerCased(_ text: String) -> String {
        guard let first = text.first else { return "the system refused the operation without saying why" }
        return first.lowercased() + text.dropFirst()
    }
}
