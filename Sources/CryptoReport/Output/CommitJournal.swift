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

    /// The day this commit records in the history (`DayRecord`), stored after the journal is
    /// synced and before the first rename: recovery rolls the commit forward only if the day is
    /// in the history, and back if it is not, so that the reports and the day go together.
    struct Recorded: Codable, Equatable {
        var history: String
        var sourceTime: Int64
    }

    var version = 1
    var replacements: [Replacement]
    var removals: [Removal]
    var records: Recorded?

    /// Which way a recorded commit goes.
    enum Direction: Equatable {
        case forward, back
    }

    /// The journal left in `directory`, if any. A journal that is a symbolic link is refused; one
    /// that cannot be read as a journal, or is not one this tool wrote (`isOwn`), is `nil` with its
    /// name, for the caller to report and leave for a person.
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
            return (journal.flatMap { $0.isOwn ? $0 : nil }, direction, name)
        }
        return nil
    }

    /// Whether every name is of the tool's own pattern, so that a damaged or planted journal
    /// cannot make recovery touch anything outside the folder: each report `name` is one plain
    /// file name (`ReportWriter.isPlainFileName`: no `/`, so no link in a path is ever followed),
    /// and each staged, kept-aside or outgoing name is the hidden name `ReportWriter.hiddenName`
    /// makes from it in the same folder.
    var isOwn: Bool {
        guard version == 1 else { return false }
        let replaced = replacements.allSatisfy { item in
            ReportWriter.isPlainFileName(item.name) && Self.isHidden(item.staged, of: item.name, suffix: "tmp")
                && (item.backup.map { Self.isHidden($0, of: item.name, suffix: "old.tmp") } ?? true)
        }
        return replaced
            && removals.allSatisfy { ReportWriter.isPlainFileName($0.name) && Self.isHidden($0.aside, of: $0.name, suffix: "gone.tmp") }
    }

    /// `.NAME.1A2B3C4D.SUFFIX`: `hidden` is what `ReportWriter.hiddenName(for: name, suffix:)` makes.
    static func isHidden(_ hidden: String, of name: String, suffix: String) -> Bool {
        // Byte for byte: `String` comparison takes canonically equivalent spellings for equal.
        let bytes = Array(hidden.utf8), prefix = Array(".\(name).".utf8), ending = Array(".\(suffix)".utf8)
        guard bytes.count == prefix.count + 8 + ending.count, bytes.starts(with: prefix), bytes.suffix(ending.count).elementsEqual(ending)
        else { return false }
        return bytes[prefix.count..<prefix.count + 8].allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }
}
