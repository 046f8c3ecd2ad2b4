import Foundation

/// A commit's files written and synced under hidden names, two at a time, before any is renamed.
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
            try check(fileSystem.createSynced(path(staged)) { write in
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
            // A second name for the synced staged file: no bytes written or synced twice
            // (a copy, and its fsync, was a tenth of a 450-market run's wall time).
            // A file system without hard links gets a copy.
            var error = fileSystem.hardLink(path(source), path(staged))
            if error != 0 { error = fileSystem.copySynced(path(source), path(staged)) }
            try check(error, file.name)
        }
    }

    /// Stages every weighted file but the copies on two lanes at once, the heaviest first, and returns
    /// each one's outcome by its position in `files`. The reports are made from the same
    /// values independently of one another (the page on one core while CSV, JSON and Markdown
    /// are made on the other), and each file's bytes are what they are made alone: only the
    /// order in which they reach the disk changes, and nothing is renamed before all are
    /// synced. A file system that counts its steps (a test's) is given them one at a time.
    func stageAhead(_ files: [File], as staged: [String]) -> [Int: Result<Void, OutputError>] {
        let order = files.indices
            .compactMap { index in files[index].weight.map { (index: index, weight: $0) } }
            .filter { if case .copy = files[$0.index].contents { false } else { true } }
            .sorted { ($0.weight, $1.index) > ($1.weight, $0.index) }
            .map(\.index)
        guard order.count > 1 else { return [:] }
        let queue = StagingQueue(order)
        ParallelChunks.twoLanes { _ in
            while let index = queue.next() {
                do throws(OutputError) {
                    try stage(files[index], as: staged[index], stagedNames: [:])
                    queue.finish(index, .success(()))
                } catch {
                    queue.finish(index, .failure(error))
                }
            }
        }
        return queue.outcomes
    }

    /// The files two lanes take in turn, and what became of each.
    final class StagingQueue: @unchecked Sendable {
        private let lock = NSLock()
        private var waiting: ArraySlice<Int>
        private var finished: [Int: Result<Void, OutputError>] = [:]

        init(_ order: [Int]) {
            waiting = order[...]
        }

        func next() -> Int? {
            lock.withLock { waiting.popFirst() }
        }

        func finish(_ index: Int, _ outcome: Result<Void, OutputError>) {
            lock.withLock { finished[index] = outcome }
        }

        var outcomes: [Int: Result<Void, OutputError>] {
            lock.withLock { finished }
        }
    }
}
