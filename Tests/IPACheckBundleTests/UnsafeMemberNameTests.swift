import Testing

@testable import IPACheckBundle

/// ARC001's words for each unsafe name: only a name that leaves the archive is said to; one whose `..`
/// stays inside says where it resolves; a drive letter and a backslash say why Windows tools misread them.
struct UnsafeMemberNameTests {
    @Test(arguments: [
        ("../evil", "climbs out of the archive with `..`"),
        ("Payload/X.app/../../../etc/passwd", "climbs out of the archive with `..`"),
        ("/etc/passwd", "is an absolute path: an extractor would write it outside its folder"),
        ("C:/Windows/evil", "names a drive (C:), which Windows extractors write outside their folder"),
        (
            "Payload\\X.app\\X",
            "contains a backslash, which Windows tools read as a folder separator and iOS as a character"
        ),
        (
            "Payload/X.app/sub/../X",
            "has a `.` or `..` segment: it stays inside the archive (it resolves to Payload/X.app/X), but extractors "
                + "differ on such names"
        ),
    ])
    func unsafeNamesSayWhy(name: String, problem: String) {
        #expect(IPAFile.unsafeNameProblem(name) == problem)
    }

    @Test(arguments: ["Payload/X.app/X", "Payload/X.app/..data", "Payload/X.app/a..b", "Payload/", "Payload/X.app/:x"])
    func ordinaryNamesAreSafe(name: String) {
        #expect(IPAFile.unsafeNameProblem(name) == nil)
    }
}

/// Where a link in a bundle points, judged as the folder reader judges it: inside its app or not.
struct LinkTargetTests {
    @Test(arguments: [
        ("Payload/X.app/root", "/", false),
        ("Payload/X.app/up", "../../etc/passwd", false),
        ("Payload/X.app/Frameworks/K.framework/Current", "Versions/A", true),
        ("Payload/X.app/Frameworks/K.framework/up", "../../Info.plist", true),
        ("Payload/X.app/a/b", "../../../x", false),
        ("Payload/X.app/empty", "", false),
    ])
    func aLinkStaysInItsAppOrNot(link: String, target: String, stays: Bool) {
        #expect(IPAFile.staysInItsApp(link: link, target: target) == stays)
    }
}
