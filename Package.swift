// swift-tools-version: 6.2
import PackageDescription

/// Language settings every target of ours shares: Swift 6 strictness, the upcoming features that keep imports
/// honest, and strict memory safety (SE-0458): every unsafe construct is marked `unsafe` where it is used, so each
/// one left (most are libplist's tree, libzip's handles and ISA-L's state, confined to PlistParser.swift,
/// ZipHandle.swift and ZipRawMember.swift) is visible and reviewed.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .strictMemorySafety(),
]

/// SwiftNIO products the HTTP layer and the loopback TLS test server use (they come with AsyncHTTPClient).
let nio: [Target.Dependency] = [
    .product(name: "NIOCore", package: "swift-nio"),
    .product(name: "NIOPosix", package: "swift-nio"),
    .product(name: "NIOHTTP1", package: "swift-nio"),
    .product(name: "NIOSSL", package: "swift-nio-ssl"),
]

/// A fuzz harness: `Fuzz/<name>`, built as the executable `Fuzz<name>`.
func fuzzHarness(_ name: String, dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: "Fuzz\(name)",
        dependencies: dependencies + ["IPACheckFuzzSupport"],
        path: "Fuzz/\(name)",
        swiftSettings: strict
    )
}

let package = Package(
    name: "ipacheck",
    platforms: [.macOS(.v13)],
    // The one product is the command: the libraries are its parts, with no API promised to other packages.
    products: [.executable(name: "ipacheck", targets: ["ipacheck"])],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.0.0"),
        // YAML config files (.ipacheck.yml); measured: +8 s on a clean build.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // C libraries, through pkg-config (Debian: libzip-dev, libplist-dev, libisal-dev; Homebrew: libzip,
        // libplist, isa-l).
        .systemLibrary(
            name: "CZip",
            pkgConfig: "libzip",
            providers: [.apt(["libzip-dev"]), .brew(["libzip"])]
        ),
        // ISA-L's inflater and CRC-32: the seal pass inflates every member, and ISA-L does it in a fraction of
        // zlib's time (measured: scripts/bench-seal, docs/performance.md).
        .systemLibrary(
            name: "CIsal",
            pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"]), .brew(["isa-l"])]
        ),
        // SHA-256 on the CPU's SHA extensions, two messages side by side: the seal pass hashes every sealed file,
        // and interleaving them takes about half of BoringSSL's time one after another (docs/performance.md).
        .target(name: "CSHA256Lanes"),
        .systemLibrary(
            name: "CPlist",
            pkgConfig: "libplist-2.0",
            providers: [.apt(["libplist-dev"]), .brew(["libplist"])]
        ),

        // Pure Swift: the one bounds-checked reader and the Mach-O / code-signature structures.
        .target(name: "IPACheckBinary", swiftSettings: strict),
        // The one shape of our input errors (a kind and a sentence), shared by the archive, CMS and signing readers.
        .target(name: "IPACheckErrors", swiftSettings: strict),
        // The one way our code shares mutable state between threads (a value behind a POSIX lock).
        .target(name: "IPACheckConcurrency", swiftSettings: strict),
        // Thin owners of the C handles.
        .target(
            name: "IPACheckArchive",
            dependencies: ["CZip", "CIsal", "IPACheckBinary", "IPACheckErrors"],
            swiftSettings: strict
        ),
        .target(name: "IPACheckPlist", dependencies: ["CPlist"], swiftSettings: strict),
        // Findings as data and the renderers that format them.
        .target(
            name: "IPACheckReport",
            dependencies: ["IPACheckBinary", "IPACheckConcurrency", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        // CMS SignedData (RFC 5652): parsing (BER/DER) and signer verification, for profiles, code signatures
        // and signed AASA files.
        .target(
            name: "IPACheckCMS",
            dependencies: [
                "IPACheckBinary", "IPACheckErrors",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // The AASA document model, Apple's matcher and the lint rules (pure, no I/O).
        .target(name: "IPACheckAASA", dependencies: ["IPACheckCMS"], swiftSettings: strict),
        // The fetching interface (requests, responses, options) the HTTP client implements and the site checks use.
        .target(name: "IPACheckFetching", swiftSettings: strict),
        // Signing: a Mach-O's code signature and its hashes, the resource seal's rules, provisioning profiles,
        // signed entitlements, trust. Knows nothing of an ipa.
        .target(
            name: "IPACheckSigning",
            dependencies: [
                "CSHA256Lanes", "IPACheckArchive", "IPACheckBinary", "IPACheckErrors", "IPACheckPlist", "IPACheckCMS",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // The link model: associated domains, their syntax and rules, and matching links against AASA documents.
        .target(
            name: "IPACheckLinks",
            dependencies: ["IPACheckAASA", "IPACheckPlist"],
            swiftSettings: strict
        ),
        // An opened build: its members, bundles and Info.plists read without unpacking, the one streaming pass
        // that checks every seal, and each bundle's facts (what its signature and profile say and grant).
        .target(
            name: "IPACheckBundle",
            dependencies: [
                "IPACheckArchive", "IPACheckBinary", "IPACheckConcurrency", "IPACheckLinks", "IPACheckPlist",
                "IPACheckReport", "IPACheckSigning",
            ],
            swiftSettings: strict
        ),
        // Device evidence: what a device's `swcutil show` holds (a sysdiagnose's swcutil_show.txt, read from the
        // archive without unpacking it), as facts.
        .target(
            name: "IPACheckDevice",
            dependencies: ["IPACheckArchive", "IPACheckReport"],
            swiftSettings: strict
        ),
        // The site checks: how each host and Apple's CDN serve the AASA file.
        .target(
            name: "IPACheckSites",
            dependencies: ["IPACheckFetching", "IPACheckLinks", "IPACheckAASA", "IPACheckReport"],
            swiftSettings: strict
        ),
        // The gate: what a build claims, the checks of the release gate, the link model triage reads (and joins
        // with a device's record), App Flip, Firebase and the config file.
        .target(
            name: "IPACheckGate",
            dependencies: [
                "IPACheckFetching", "IPACheckBundle", "IPACheckSigning", "IPACheckLinks", "IPACheckSites",
                "IPACheckAASA", "IPACheckArchive", "IPACheckBinary", "IPACheckCMS", "IPACheckDevice", "IPACheckPlist",
                "IPACheckReport",
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict
        ),
        // What each command answers: runs the library for the parsed options and writes the answer, the report and
        // the exit status. The executable only parses arguments into these runs.
        .target(
            name: "IPACheckCommands",
            dependencies: [
                "IPACheckAASA", "IPACheckArchive", "IPACheckBinary", "IPACheckBundle", "IPACheckCMS",
                "IPACheckConcurrency", "IPACheckDevice", "IPACheckFetching", "IPACheckGate", "IPACheckHTTP",
                "IPACheckLinks", "IPACheckPlist", "IPACheckReport", "IPACheckSigning", "IPACheckSites",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "IPACheckHTTP",
            dependencies: [
                "IPACheckConcurrency", "IPACheckFetching",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ] + nio + [.product(name: "NIOHTTPCompression", package: "swift-nio-extras")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "ipacheck",
            dependencies: [
                "IPACheckArchive", "IPACheckCommands", "IPACheckFetching", "IPACheckReport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),

        // Benchmarks (run by hand; see the README's Performance section).
        .executableTarget(
            name: "AASAMatchBenchmark",
            dependencies: ["IPACheckAASA"],
            path: "Benchmarks/AASAMatchBenchmark",
            swiftSettings: strict
        ),
        // The hashing microbenchmark (scripts/bench-hash): BoringSSL's SHA-256 against the SHA-extension lanes, and
        // after ISA-L left the vector registers dirty.
        .executableTarget(
            name: "HashThroughput",
            dependencies: ["CIsal", "CSHA256Lanes", .product(name: "Crypto", package: "swift-crypto")],
            path: "Benchmarks/HashThroughput",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "SealBaseline",
            dependencies: ["CZip", .product(name: "Crypto", package: "swift-crypto")],
            path: "Benchmarks/SealBaseline",
            swiftSettings: strict
        ),

        // Fuzzing (Fuzz/README.md): libFuzzer harnesses when scripts/fuzz builds them with -sanitize=fuzzer and
        // IPACHECK_LIBFUZZER defined; in any other build, tools that replay files through the same harness.
        .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .target(name: "IPACheckFuzzSupport", dependencies: ["CLibFuzzer"], path: "Fuzz/Support", swiftSettings: strict),
        fuzzHarness("MachO", dependencies: ["IPACheckBinary", "IPACheckSigning"]),
        fuzzHarness(
            "Entitlements",
            dependencies: ["IPACheckBundle", "IPACheckGate", "IPACheckSigning", "IPACheckLinks", "IPACheckPlist"]
        ),
        fuzzHarness("CMS", dependencies: ["IPACheckCMS", "IPACheckAASA", "IPACheckGate", "IPACheckSigning"]),
        fuzzHarness("Plist", dependencies: ["IPACheckPlist"]),
        fuzzHarness("Zip", dependencies: ["IPACheckArchive", "IPACheckBundle", "IPACheckSigning"]),
        fuzzHarness("AASA", dependencies: ["IPACheckAASA", "IPACheckGate"]),
        fuzzHarness("HTTP", dependencies: ["IPACheckFetching", "IPACheckSites", "IPACheckReport"]),
        fuzzHarness("Config", dependencies: ["IPACheckGate"]),
        fuzzHarness("Device", dependencies: ["IPACheckArchive", "IPACheckDevice"]),

        // Tests.
        .target(
            name: "IPACheckTestSupport",
            dependencies: [
                "IPACheckBinary", "IPACheckConcurrency", "IPACheckPlist",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ] + nio,
            path: "Tests/Support",
            swiftSettings: strict
        ),
        .testTarget(name: "IPACheckConcurrencyTests", dependencies: ["IPACheckConcurrency"], swiftSettings: strict),
        .testTarget(name: "IPACheckErrorsTests", dependencies: ["IPACheckErrors"], swiftSettings: strict),
        .testTarget(name: "IPACheckFetchingTests", dependencies: ["IPACheckFetching"], swiftSettings: strict),
        .testTarget(
            name: "IPACheckBinaryTests",
            dependencies: ["IPACheckBinary", "IPACheckTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "IPACheckArchiveTests",
            dependencies: [
                "IPACheckArchive", "IPACheckTestSupport", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "IPACheckDeviceTests",
            dependencies: ["IPACheckDevice", "IPACheckArchive", "IPACheckReport", "IPACheckTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "IPACheckPlistTests",
            dependencies: ["IPACheckPlist", "IPACheckArchive", "IPACheckTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "IPACheckReportTests",
            dependencies: ["IPACheckReport", "IPACheckTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "IPACheckAASATests",
            dependencies: ["IPACheckAASA", "IPACheckReport", "IPACheckTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "IPACheckBundleTests",
            dependencies: [
                "IPACheckArchive", "IPACheckBinary", "IPACheckBundle", "IPACheckLinks", "IPACheckPlist",
                "IPACheckReport", "IPACheckSigning", "IPACheckTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "IPACheckSigningTests",
            dependencies: [
                "IPACheckArchive", "IPACheckBinary", "IPACheckBundle", "IPACheckCMS", "IPACheckPlist", "IPACheckReport",
                "IPACheckSigning", "IPACheckTestSupport", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "IPACheckLinksTests",
            dependencies: ["IPACheckLinks", "IPACheckPlist", "IPACheckReport", "IPACheckTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "IPACheckSitesTests",
            dependencies: [
                "IPACheckFetching", "IPACheckLinks", "IPACheckReport", "IPACheckSites", "IPACheckTestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "IPACheckGateTests",
            dependencies: [
                "IPACheckAASA", "IPACheckBinary", "IPACheckBundle", "IPACheckCommands", "IPACheckFetching",
                "IPACheckGate", "IPACheckLinks",
                "IPACheckPlist", "IPACheckReport", "IPACheckSigning", "IPACheckSites", "IPACheckTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "IPACheckCMSTests",
            dependencies: [
                "IPACheckCMS", "IPACheckTestSupport",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "IPACheckHTTPTests",
            dependencies: [
                "IPACheckHTTP", "IPACheckFetching", "IPACheckSites", "IPACheckGate", "IPACheckLinks", "IPACheckReport",
                "IPACheckTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "IPACheckCommandsTests",
            dependencies: [
                "IPACheckAASA", "IPACheckBundle", "IPACheckCommands", "IPACheckFetching", "IPACheckGate",
                "IPACheckLinks", "IPACheckPlist", "IPACheckReport", "IPACheckSigning", "IPACheckTestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["IPACheckTestSupport"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
