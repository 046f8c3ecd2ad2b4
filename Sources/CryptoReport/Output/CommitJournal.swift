import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The set of renames one commit is about to make, recorded in the output folder before the
/// first of them, so that a run killed part-way can be finished by the next one.
///
/// `.cryptoreport-journal` holds a commit to roll forward; renamed to `.cryptoreport-journal.undo`
/// (a rename needs no free space) it holds one being rolled back after a rename failed. Written
/// to `.cryptoreport-journal.tmp`, synced, then renamed, so that it is either whole or absent.
struct CommitJournal: Codable, Equatable {
    static let fileName = ".cryptoreport-journal"
    static let undoFileName = ".cryptoreport-journal.undo"
    static let temporaryFileName = ".cryptoreport-journal.tmp"

    struct Replacement: Codable, Equatable {
        /// The report's name in the folder.
        var name: String
        /// The synced new contents, renamed over `name`.
        var staged: String
        /// A hard link to (or copy of) the report `name` held before, if it held one.
        var backup: String?
    }

    struct Removal: Codable, Equatable {
        /// An outdated report of the same run (an alerts file when none fired).
        var name: String
        /// Where it is moved before it is deleted.
        var aside: String
    }

    var version = 1
    var replacements: [Replacement]
    var removals: [Removal]

    /// Which way a recorded commit goes.
    enum Direction: Equatable {
        case forward, back
    }

    /// The journal left in `directory`, if any. A journal that is a symbolic link is refused; one
    /// that cannot be read as a journal is `nil` with its name, for the caller to report.
    static func read(in directory: URL) throws(OutputError) -> (journal: CommitJournal?, direction: Direction, file: String)? {
        for (name, direction) in [(fileName, Direction.forward), (undoFileName, Direction.back)] {
            let path = directory.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw .notWritable(
                    path: directory.path, reason: "\(name) is not a regular file (a symbolic link is never followed); remove it")
            }
            let data = FileManager.default.contents(atPath: path) ?? Data()
            let journal = try? JSONDecoder().decode(CommitJournal.self, from: data)
            return (journal.flatMap { $0.isSound ? $0 : nil }, direction, name)
        }
        return nil
    }

    /// Every name is a plain relative path inside the folder, so that a damaged or planted journal
    /// cannot make recovery rename files elsewhere.
    var isSound: Bool {
        let names = replacements.flatMap { [$0.name, $0.staged] + ($0.backup.map { [$0] } ?? []) } + removals.flatMap { [$0.name, $0.aside] }
        return version == 1 && names.allSatisfy { name in
            !name.isEmpty && !name.hasPrefix("/") && !name.split(separator: "/", omittingEmptySubsequences: false).contains("..")
        }
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }
}
