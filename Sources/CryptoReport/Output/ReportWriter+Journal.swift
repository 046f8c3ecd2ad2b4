import Foundation

/// A commit carried out from its synced journal, or rolled back.
extension ReportWriter {
    /// Makes the renames a synced journal records, skipping those already made, then deletes the
    /// journal and what was kept aside. A rename that fails rolls the whole commit back.
    func apply(_ journal: CommitJournal) throws(OutputError) {
        try renameAll(journal)
        try finish(journal)
    }

    /// The renames, skipping those already made; a rename that fails rolls the whole commit back.
    ///
    /// Only regular files are renamed into a report's name: a link planted under a staged or
    /// kept-aside name is never published (the names themselves are checked by `CommitJournal.isOwn`).
    func renameAll(_ journal: CommitJournal) throws(OutputError) {
        for item in journal.replacements where isRegularFile(item.staged) {
            let error = fileSystem.rename(path(item.staged), path(item.name))
            if error != 0 { throw rollBack(journal, failed: item.name, reason: String(cString: strerror(error))) }
        }
        // Last, once every report is in place.
        for removal in journal.removals where isRegularFile(removal.name) && !exists(removal.aside) {
            let error = fileSystem.rename(path(removal.name), path(removal.aside))
            if error != 0 {
                throw rollBack(journal, failed: removal.name, reason: "cannot remove the outdated file: \(String(cString: strerror(error)))")
            }
        }
    }

    /// After the renames: the folder synced, then the journal and what was kept aside deleted.
    func finish(_ journal: CommitJournal) throws(OutputError) {
        // Past the point of no return: the reports are in place. A folder that cannot be synced
        // may lose them in a crash, which the run must say (73); the journal stays, and the next
        // run finishes the commit again.
        let synced = fileSystem.syncDirectory(directory.path)
        guard synced == 0 else {
            throw .writeFailed(
                path: directory.path, reason: "the reports are in place but the folder could not be synced to disk: \(String(cString: strerror(synced)))")
        }
        _ = fileSystem.unlink(path(CommitJournal.fileName))
        let removed = fileSystem.syncDirectory(directory.path)
        discardKeptAside(journal)
        guard removed == 0 else {
            throw .writeFailed(
                path: directory.path, reason: "the reports are in place but the folder could not be synced to disk: \(String(cString: strerror(removed)))")
        }
    }

    /// Marks the journal as rolling back (a rename: it needs no free space), puts back every report
    /// replaced or removed, and returns the error to throw.
    func rollBack(_ journal: CommitJournal, failed name: String, reason: String) -> OutputError {
        _ = fileSystem.rename(path(CommitJournal.fileName), path(CommitJournal.undoFileName))
        _ = fileSystem.syncDirectory(directory.path)
        finishRollBack(journal)
        return .writeFailed(path: path(name), reason: reason)
    }

    /// Undoes a recorded commit, whatever part of it was made; safe to repeat after a kill.
    func finishRollBack(_ journal: CommitJournal) {
        for removal in journal.removals where isRegularFile(removal.aside) {
            _ = fileSystem.rename(path(removal.aside), path(removal.name))
        }
        for item in journal.replacements.reversed() {
            if let backup = item.backup {
                // Still the same file as the report when its rename was never made: rename(2)
                // then leaves both names, and the backup goes.
                if isRegularFile(backup) { _ = fileSystem.rename(path(backup), path(item.name)) }
                if exists(backup) && isRegularFile(item.name) { _ = fileSystem.unlink(path(backup)) }
            } else if !exists(item.staged) {
                // The name was free before the commit, and the new report took it.
                _ = fileSystem.unlink(path(item.name))
            }
            if exists(item.staged) { _ = fileSystem.unlink(path(item.staged)) }
        }
        _ = fileSystem.syncDirectory(directory.path)
        _ = fileSystem.unlink(path(CommitJournal.undoFileName))
        _ = fileSystem.syncDirectory(directory.path)
    }

    /// After a commit: the previous reports and the outdated ones go, each only if a report of its
    /// name is in place (a backup whose name is free is the only copy left: it goes back).
    func discardKeptAside(_ journal: CommitJournal) {
        for item in journal.replacements {
            guard let backup = item.backup, isRegularFile(backup) else { continue }
            if isRegularFile(item.name) {
                _ = fileSystem.unlink(path(backup))
            } else {
                _ = fileSystem.rename(path(backup), path(item.name))
            }
        }
        for removal in journal.removals where exists(removal.aside) { _ = fileSystem.unlink(path(removal.aside)) }
    }
}
