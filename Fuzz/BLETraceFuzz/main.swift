// libFuzzer harness. Build and run with scripts/fuzz.sh; the target is chosen by BLETRACE_FUZZ_TARGET
// (capture, packets, ad, containers). The program hands control to libFuzzer's driver.
import BLETrace
#if canImport(Glibc)
import Glibc
#endif

nonisolated(unsafe) var selectedTarget = getenv("BLETRACE_FUZZ_TARGET").map { String(cString: $0) } ?? "capture"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTargets.run(selectedTarget, bytes)
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
