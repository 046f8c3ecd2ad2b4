import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension HistoryStore {
    /// The database, and the journal files SQLite keeps beside it, are never reached through a
    /// symbolic link: one planted in the output folder would have the run write (as its user)
    /// wherever it points. Report names are not followed either (a rename replaces the link).
    static func refuseSymbolicLinks(at path: String) throws(HistoryError) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            var info = stat()
            if lstat(path + suffix, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
                throw .cannotOpen(path: path + suffix, reason: "it is a symbolic link, which is never followed; remove it or name the real file")
            }
        }
    }
}
