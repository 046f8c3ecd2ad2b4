import Foundation

/// A commit's files written and synced under hidden names, one after another, before any is renamed.
extension ReportWriter {
    /// Writes and syncs `file`'s contents as `staged`; a `latest` copy links the staged file of
    /// its original (in `stagedNames`).
    func stage(_ file: File, as staged: String, stagedNames: [String: String]) throws(OutputError) {
        switch file.contents {
        case let .text(text):
            try check(create(staged, text), file.name)
        case let .rendered(make):
            let text: String
            do {
                text = try make()
            } catch {
                throw .writeFailed(path: path(file.name), reason: "the report could not be made: \(error.localizedDescription)")
            }
            try check(create(staged, text), file.name)
        case let .streamed(produce):
            try check(
                fileSystem.createSynced(path(staged)) { write in
                    withoutActuallyEscaping(write) { write in
                        produce { piece in
                            var piece = piece
                            piece.withUTF8 { write(UnsafeRawBufferPointer($0)) }
                        }
                    }
                }, file.name)
        case let .bytes(produce):
            var failure: (any Error)?
            let error = fileSystem.createSynced(path(staged)) { write in
                do { try produce(write) } catch { failure = error }
            }
            if let failure {
                if error == 0 { _ = fileSystem.unlink(path(staged)) }
                throw .writeFailed(path: path(file.name), reason: "the report could not be made: \(failure.localizedDescription)")
            }
            try check(error, file.name)
        case let .copy(of: original):
            guard let source = stagedNames[original] else {
                throw .writeFailed(path: path(file.name), reason: "\(original) is not written by this run")
            }
            // A second name for the synced staged file: no bytes written or synced twice.
            // A file system without hard links gets a copy.
            var error = fileSystem.hardLink(path(source), path(staged))
            if error != 0 { error = fileSystem.copySynced(path(source), path(staged)) }
            try check(error, file.name)
        }
    }
}
