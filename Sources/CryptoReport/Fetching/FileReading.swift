public import Foundation

/// Reads local input files; a protocol so tests can stand in for the disk.
public protocol FileReading: Sendable {
    func contents(of path: String, source: DataSource) throws -> Data
}

public struct LocalFileReader: FileReading {
    public init() {}

    public func contents(of path: String, source: DataSource) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FetchError.fileMissing(source: source, path: path)
        }
        guard !isDirectory.boolValue else {
            throw FetchError.fileUnreadable(source: source, path: path, reason: "it is a folder")
        }
        // A FIFO, device or socket could block the read past every deadline while the run holds
        // the folder's lock: only a regular file is read.
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw FetchError.fileUnreadable(source: source, path: path, reason: "it is not a regular file (a FIFO, device or socket)")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw FetchError.fileUnreadable(source: source, path: path, reason: "permission denied or not a regular file")
        }
    }
}
