#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback port that refuses connections while a body runs: a TCP socket bound to 127.0.0.1 and never listening.
///
/// Holding the port keeps another test's server from taking it. "Start a server, stop it, connect to its port" could
/// not: under load a parallel test's server took the freed port, and a fetch that should have been refused waited
/// for an answer instead.
package enum RefusingPort {
    /// Why no port could be reserved.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Runs `body` with the port, which refuses connections until `body` returns.
    package static func with<T>(_ body: (Int) async throws -> T) async throws -> T {
        let (descriptor, port) = try reserve()
        defer { close(descriptor) }
        return try await body(port)
    }

    /// Runs `body` with the port, which refuses connections until `body` returns.
    package static func with<T>(_ body: (Int) throws -> T) throws -> T {
        let (descriptor, port) = try reserve()
        defer { close(descriptor) }
        return try body(port)
    }

    /// A socket bound to a free loopback port, and the port.
    private static func reserve() throws -> (Int32, Int) {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "no socket could be made") }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = unsafe inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        // bind and getsockname read and write the local address for the call only.
        let bound = unsafe withUnsafeMutablePointer(to: &address) { pointer in
            unsafe pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                unsafe bind(descriptor, socketAddress, length) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw Failure(description: "no loopback port could be bound")
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}
