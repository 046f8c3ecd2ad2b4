import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1, started by a test, serving canned responses by path.
/// It answers one request per connection and closes it, which is all URLSession needs here.
final class LoopbackServer: @unchecked Sendable {
    struct Response: Sendable {
        var status: Int
        var body: Data
        var contentType = "application/json"
        /// Seconds to wait before answering, to provoke timeouts.
        var delay: Double = 0
    }

    let port: UInt16
    private let listener: Int32
    private let routes: [String: Response]
    private let stopped = NSLock()
    private var isStopped = false

    init(routes: [String: Response]) throws {
        self.routes = routes
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func stop() {
        stopped.lock()
        defer { stopped.unlock() }
        guard !isStopped else { return }
        isStopped = true
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            let routes = routes
            Thread.detachNewThread { Self.serve(client, routes: routes) }
        }
    }

    private static func serve(_ client: Int32, routes: [String: Response]) {
        defer { close(client) }
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.containsHeaderEnd() {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { return }
            request += buffer[0..<count]
            if request.count > 65536 { return }
        }
        let line = String(decoding: request.prefix { $0 != 0x0D }, as: UTF8.self)
        let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let response = routes[path] ?? Response(status: 404, body: Data("not found".utf8), contentType: "text/plain")
        if response.delay > 0 { Thread.sleep(forTimeInterval: response.delay) }
        let head = "HTTP/1.1 \(response.status) Status\r\nContent-Type: \(response.contentType)\r\n"
            + "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + Array(response.body)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func containsHeaderEnd() -> Bool {
        guard count >= 4 else { return false }
        for index in 0...(count - 4) where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
            return true
        }
        return false
    }
}
