package import Foundation

/// The last good payload of each source, kept so that a run can fall back to it when a live
/// fetch fails, or run with `--offline`.
///
/// Each source has two files: the raw body exactly as fetched, and a small JSON record of when and
/// where it was fetched. Both are written atomically (temporary file, then rename), body first, so
/// a record never points at a half-written body.
package struct PayloadCache: Sendable {
    package var directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    /// `$XDG_CACHE_HOME/cryptoreport`, else `~/.cache/cryptoreport`.
    package static func defaultDirectory(environment: [String: String]) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("cryptoreport")
        }
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".cache/cryptoreport")
    }

    struct Record: Codable {
        var fetchedAt: Date
        var location: String
        var bytes: Int
    }

    package struct Entry: Sendable {
        package var data: Data
        package var fetchedAt: Date
        package var location: String
    }

    private func bodyURL(_ source: DataSource) -> URL {
        switch source {
        case .tickers: directory.appendingPathComponent("tickers-24hr.json")
        case .rates: directory.appendingPathComponent("eurofxref-daily.xml")
        default: directory.appendingPathComponent("\(source.rawValue).json")
        }
    }

    private func recordURL(_ source: DataSource) -> URL {
        directory.appendingPathComponent("\(source.rawValue).fetch.json")
    }

    /// Stores a payload that parsed. Failing to cache never fails a run, so errors are returned
    /// for a warning rather than thrown.
    @discardableResult
    package func store(_ payload: FetchedPayload) -> String? {
        // Foundation's atomic write goes through a temporary file, which a signal must not strand.
        RunInterruption.shared.uninterrupted { storeNow(payload) }
    }

    private func storeNow(_ payload: FetchedPayload) -> String? {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try payload.data.write(to: bodyURL(payload.source), options: .atomic)
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            let record = Record(fetchedAt: payload.fetchedAt, location: payload.location.description, bytes: payload.data.count)
            try encoder.encode(record).write(to: recordURL(payload.source), options: .atomic)
            return nil
        } catch {
            return "cannot update the cache in \(directory.path)"
        }
    }

    /// Whether anything is cached for `source`, usable or not: a copy that `load` refuses is then
    /// damaged, not missing, and a warning says so.
    package func hasFiles(_ source: DataSource) -> Bool {
        FileManager.default.fileExists(atPath: recordURL(source).path) || FileManager.default.fileExists(atPath: bodyURL(source).path)
    }

    /// The cached payload, if there is one whose body matches its record.
    package func load(_ source: DataSource) -> Entry? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let recordData = try? Data(contentsOf: recordURL(source)),
            let record = try? decoder.decode(Record.self, from: recordData),
            let data = try? Data(contentsOf: bodyURL(source)), data.count == record.bytes
        else { return nil }
        return Entry(data: data, fetchedAt: record.fetchedAt, location: record.location)
    }
}
