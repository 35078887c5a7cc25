import IPACheckErrors

/// Why an archive, or one of its members, could not be read.
package struct ArchiveError: CodedError {
    /// The kind of failure, stable for tests and JSON.
    package enum Code: String, Sendable, Hashable {
        /// The file does not exist or cannot be opened.
        case unreadable
        /// The file is not a zip archive at all.
        case notAZip
        /// The file starts as a zip archive but its end is missing (an interrupted download or copy).
        case truncated
        /// The zip's central directory contradicts itself or its local headers.
        case inconsistent
        /// A member is encrypted; ipas never are.
        case encrypted
        /// A member uses a compression method libzip cannot decompress here.
        case unsupportedCompression
        /// A member's data is damaged (bad CRC, truncated stream).
        case damagedMember
        /// A member holds more bytes than we are willing to read.
        case tooLarge
        /// The archive has more members than we are willing to list.
        case tooManyEntries
    }

    /// The kind of failure.
    package let code: Code
    /// The archive member concerned, if the failure is about one member.
    package let member: String?
    /// Details for people (libzip's own message where it has one).
    package let reason: String

    /// Creates an error.
    package init(_ code: Code, member: String? = nil, reason: String) {
        self.code = code
        self.member = member
        self.reason = reason
    }

    /// The reason, with the member when there is one: `member is encrypted (member Payload/A.app/A)`.
    package var description: String {
        if let member { return "\(reason) (member \(member))" }
        return reason
    }
}
