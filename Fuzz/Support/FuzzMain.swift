import Foundation

#if IPACHECK_LIBFUZZER
import CLibFuzzer
#endif

/// A harness's `main`: libFuzzer's driver in a fuzz build (scripts/fuzz defines `IPACHECK_LIBFUZZER` and links
/// libFuzzer with `-sanitize=fuzzer`), a replay of the files named on the command line in any other build.
///
/// The harness keeps its own `main` because SwiftPM renames every executable's `main` on Linux (it links
/// `main=<Module>_main`), which leaves libFuzzer's own `main` unusable; `LLVMFuzzerRunDriver` is libFuzzer's entry
/// for exactly this case. Any ordinary build therefore still compiles and runs every harness.
public enum FuzzMain {
    /// Runs `harness` on every input (the fuzzer's when fuzzing, the named files' otherwise), then exits.
    public static func run(_ harness: @escaping ([UInt8]) -> Void) -> Never {
        #if IPACHECK_LIBFUZZER
        // Set once, before the driver starts; libFuzzer then calls back on this thread only.
        unsafe currentHarness = harness
        var argc = CommandLine.argc
        // libFuzzer's driver takes C's argc and argv (the process's own, alive until exit) and calls back with each
        // input.
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = unsafe CommandLine.unsafeArgv
        exit(unsafe LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
        #else
        FuzzReplay.run(harness)
        exit(0)
        #endif
    }

    /// The harness libFuzzer's C callback calls (a C function pointer cannot capture it).
    nonisolated(unsafe) fileprivate static var currentHarness: (([UInt8]) -> Void)?
}

#if IPACHECK_LIBFUZZER
/// libFuzzer's callback, under the name its archive's (unused) `main` also refers to, so the link resolves.
///
/// Stops at once if no harness registered: that would mean libFuzzer's `main` ran instead of the harness's, and
/// every input would pass untested.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let harness = unsafe FuzzMain.currentHarness else {  // set before the driver started (see `run`)
        fatalError("libFuzzer called back before a harness registered: its own main ran, not FuzzMain.run")
    }
    harness(unsafe fuzzInputBytes(start, count))
    return 0
}
#endif
