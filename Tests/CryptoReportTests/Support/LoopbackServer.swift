import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1, started by a test, serving canned responses by path.
/// It answers one request per connection and closes it, which is all the HTTP client needs here.
final class LoopbackServer: @unchecked Sendable {
    struct Response: Sendable {
        enum Behaviour: Sendable {
            case normal
            /// Close the connection with a TCP reset instead of answering.
            case reset
            /// Declare the full length, send only this many bytes, then close.
            case truncate(after: Int)
            /// Send the body a few bytes at a time with a pause between.
            case trickle(bytes: Int, every: Double)
            /// Chunked transfer encoding with no declared length.
            case chunked
            /// The body alone, no HTTP head: a server that does not speak HTTP.
            case notHTTP
        }

        var status: Int
        var body: Data
        var contentType = "application/json"
        /// Seconds to wait before answering, to provoke timeouts.
        var delay: Double = 0
        var headers: [String: String] = [:]
        var behaviour: Behaviour = .normal
    }

    let port: UInt16
    private let listener: Int32
    private let routes: [String: Response]
    /// Responses served in turn before falling back to `routes`: 503 first, then 200.
    private var sequences: [String: [Response]]
    private let state = NSLock()
    private var log: [(path: String, at: ContinuousClock.Instant)] = []
    private var accepted = 0
    private let stopped = NSLock()
    private var isStopped = false
    /// Signalled when the accept loop has returned, and so no longer uses the listener's descriptor.
    private let acceptLoopEnded = DispatchSemaphore(value: 0)

    init(routes: [String: Response], sequences: [String: [Response]] = [:]) throws {
        self.routes = routes
        self.sequences = sequences
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
        // Close only once the accept loop has stopped: the next server's socket() may be given the
        // same descriptor number, and an accept() still looping here would then take that server's
        // connections and answer them with this server's routes (seen in CI: a trickle test
        // answered at once with the previous test's HTML page).
        shutdown(listener, Int32(SHUT_RDWR))
        acceptLoopEnded.wait()
        close(listener)
    }

    deinit { stop() }

    /// Requests received so far, in order, with when they arrived.
    var requests: [(path: String, at: ContinuousClock.Instant)] {
        state.lock()
        defer { state.unlock() }
        return log
    }

    /// Connections made so far, answered or not; one queued but not yet accepted counts too.
    var connections: Int {
        guard stopped.withLock({ !isStopped }) else { return state.withLock { accepted } }
        var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        let pending = poll(&descriptor, 1, 0) > 0 ? 1 : 0
        return state.withLock { accepted } + pending
    }

    private func acceptLoop() {
        defer { acceptLoopEnded.signal() }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            state.withLock { accepted += 1 }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func response(for path: String) -> Response {
        state.lock()
        defer { state.unlock() }
        log.append((path, ContinuousClock.now))
        if var queue = sequences[path], !queue.isEmpty {
            let next = queue.removeFirst()
            sequences[path] = queue
            return next
        }
        return routes[path] ?? Response(status: 404, body: Data("not found".utf8), contentType: "text/plain")
    }

    private func serve(_ client: Int32) {
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
        let response = response(for: path)
        if response.delay > 0 { Thread.sleep(forTimeInterval: response.delay) }
        if case .reset = response.behaviour {
            var linger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
            return
        }
        if case .notHTTP = response.behaviour {
            _ = Self.transmit(Array(response.body), to: client)
            return
        }
        var head = "HTTP/1.1 \(response.status) Status\r\nContent-Type: \(response.contentType)\r\nConnection: close\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        let body = Array(response.body)
        switch response.behaviour {
        case .chunked:
            head += "Transfer-Encoding: chunked\r\n\r\n"
            guard Self.transmit(Array(head.utf8), to: client) else { return }
            for start in stride(from: 0, to: body.count, by: 65536) {
                let chunk = body[start..<min(body.count, start + 65536)]
                guard Self.transmit(Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10], to: client) else { return }
            }
            _ = Self.transmit(Array("0\r\n\r\n".utf8), to: client)
        case let .truncate(after):
            head += "Content-Length: \(body.count)\r\n\r\n"
            _ = Self.transmit(Array(head.utf8) + body.prefix(after), to: client)
        case let .trickle(bytes, every):
            head += "Content-Length: \(body.count)\r\n\r\n"
            guard Self.transmit(Array(head.utf8), to: client) else { return }
            for start in stride(from: 0, to: body.count, by: bytes) {
                guard Self.transmit(Array(body[start..<min(body.count, start + bytes)]), to: client) else { return }
                Thread.sleep(forTimeInterval: every)
            }
        case .normal, .reset, .notHTTP:
            head += "Content-Length: \(body.count)\r\n\r\n"
            _ = Self.transmit(Array(head.utf8) + body, to: client)
        }
    }

    private static func transmit(_ bytes: [UInt8], to client: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            offset += written
        }
        return true
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
