package import Foundation

/// What a run adds to a folder people share, in the same all-or-nothing commit as its reports:
/// the `cryptoreport-latest-<CURRENCY>.<ext>` copies of the newest reports, and `index.html`
/// listing what the folder holds once the commit is made.
///
/// Copies rather than symbolic links: a copy works wherever the folder goes (a web server that
/// does not follow links, a zip, a Windows share), and it is replaced by the same journaled
/// rename as the reports, so a failed run leaves the previous copies whole.
package struct SharedFolder: Sendable {
    package static let indexName = "index.html"

    package var directory: URL
    /// Write the `latest` copies; `false` (`--no-latest`) leaves those there as they are.
    package var latest: Bool

    package init(directory: URL, latest: Bool) {
        self.directory = directory
        self.latest = latest
    }

    /// The folder's record of the reports this tool wrote there, one name per line, replaced in
    /// every commit with the reports themselves. The latest copies and the index follow it, not
    /// whatever else is named like a report: a stray file (a copy, a mistaken name) could
    /// otherwise hold the latest copies on an older report. It keeps out mistakes, not a member
    /// of a shared folder, who can edit it as they can any report. Hidden like the lock and the journal, and the one
    /// hidden name a commit may write (`ReportWriter.isPlainFileName`).
    package static let recordName = ".cryptoreport-reports"
    /// A record larger than this is no record of this tool's (some 1,800 names a year).
    static let recordLimit = 4 << 20

    /// What a run adds to and removes from the folder beside its own files.
    package struct Additions {
        /// The latest copies, the index and the record.
        package var files: [ReportWriter.File]
        /// Latest copies of reports the run removes.
        package var removing: [String]
        /// Files named like reports but dated after the run's own day (a day ahead, for the
        /// zones), which no run of this tool wrote from real data.
        package var future: [String]
        /// Files named like reports, dated after the run's data, that the record does not hold:
        /// put there by something else.
        package var unrecorded: [String]
        /// An earlier run's reports of the same day and currency, which this run's replace.
        package var replaced: [String]
    }

    /// The files to write and remove alongside the run's `files` and `obsolete` names.
    /// `names`: the files the run writes. The `latest` copies are copies of those files as
    /// staged (`ReportWriter.File.Contents.copy(of:)`), so no report's text is held twice.
    /// `pageCurrencies`: the currencies the run's HTML page holds, when it holds two
    /// (`--currency SEK,USD`): the index links the second to that page.
    ///
    /// The reports the folder holds are those of the record that are still there, this run's,
    /// and any other report-named file dated no later than this run's data (one copied in, or
    /// every report of a folder written before the record existed). The `future` and
    /// `unrecorded` files neither take the `latest` names nor appear in the index, and the run
    /// warns of them.
    package func additions(for report: Report, names: [String], removing obsolete: [String], pageCurrencies: [String] = []) -> Additions {
        let present = Self.regularFiles(in: directory.path)
        let replaced = names.filter { name in present.contains(name) && ReportFileName(parsing: name).map { $0.kind != .alerts } ?? false }
        let removed = Set(obsolete)
        let latestPossible = ReportDates.day(report.generatedAt.addingTimeInterval(86_400))
        let named = present.compactMap(ReportFileName.init(parsing:)).filter { !removed.contains($0.name) }
        let future = named.filter { $0.date > latestPossible }.map(\.name).sorted()
        let record = Self.record(in: directory)
        let unrecorded = named.filter { file in
            file.date <= latestPossible && file.date > report.dataDate && !(record?.contains(file.name) ?? true)
        }.map(\.name).sorted()
        let left = Set(future + unrecorded)
        var reports = Set(named.filter { !left.contains($0.name) })
        let written = names.compactMap { name in ReportFileName(parsing: name).map { ($0, name) } }
        reports.formUnion(written.map(\.0))
        var latestNames = Set(present.filter { $0.hasPrefix("cryptoreport-latest-") && IndexRenderer.latestFile($0) != nil })
        var extra: [ReportWriter.File] = []
        var gone: [String] = []
        // A replay of an older day does not take the latest names from a newer report.
        let newest = reports.filter { $0.currency == report.currency }.map(\.date).max() ?? report.dataDate
        if latest && report.dataDate >= newest {
            for (name, original) in written {
                extra.append(ReportWriter.File(name: name.latestName, contents: .copy(of: original)))
                latestNames.insert(name.latestName)
            }
            for name in obsolete {
                guard let parsed = ReportFileName(parsing: name) else { continue }
                gone.append(parsed.latestName)
                latestNames.remove(parsed.latestName)
            }
        }
        // Which pages hold two currencies: this run's it knows; an earlier run's page says so in
        // its first lines, and only those are read (`pageCurrencies(of:)`).
        var pages: [String: [String]] = [:]
        let copies = latest && report.dataDate >= newest
        var fresh = Set(names)
        if copies { fresh.formUnion(written.map(\.0.latestName)) }
        if pageCurrencies.count > 1 {
            for (file, name) in written where file.kind == .report(.html) && file.currency == report.currency {
                pages[name] = pageCurrencies
                if copies { pages[file.latestName] = pageCurrencies }
            }
        }
        for file in reports where file.kind == .report(.html) && !fresh.contains(file.name) {
            if let held = Self.pageCurrencies(of: directory.appendingPathComponent(file.name)) { pages[file.name] = held }
        }
        for name in latestNames where name.hasSuffix(".html") && !fresh.contains(name) {
            if let held = Self.pageCurrencies(of: directory.appendingPathComponent(name)) { pages[name] = held }
        }
        // Made when staged.
        let listed = Array(reports)
        let latestListed = Array(latestNames)
        // The alerts open their markets on this run's page, not on an earlier run's of the day.
        let alertsPage = written.first { $0.0.kind == .report(.html) && $0.0.currency == report.currency }?.1
        extra.append(
            ReportWriter.File(
                name: Self.indexName,
                contents: .rendered {
                    IndexRenderer().render(reports: listed, latest: latestListed, report: report, pages: pages, alertsPage: alertsPage)
                }))
        extra.append(ReportWriter.File(name: Self.recordName, contents: .text(Self.recordText(reports.map(\.name)))))
        return Additions(files: extra, removing: gone, future: future, unrecorded: unrecorded, replaced: replaced)
    }

    /// The record's text: a line saying what it is, then the names in order.
    static func recordText(_ names: [String]) -> String {
        "# The reports cryptoreport wrote in this folder; its latest copies and index.html follow this list.\n"
            + names.sorted().map { $0 + "\n" }.joined()
    }

    /// The names the folder's record holds; `nil` when there is none (a folder written before
    /// the record existed). Anything else at its name that is not a plain, readable file of
    /// reasonable size (a link is never followed) is a record of nothing: a name it cannot vouch
    /// for is left out rather than trusted.
    static func record(in directory: URL) -> Set<String>? {
        let path = directory.appendingPathComponent(recordName).path
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT ? nil : [] }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= recordLimit,
            let data = try? handle.readToEnd()
        else { return [] }
        let names = String(decoding: data, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
        return Set(names.compactMap { ReportFileName(parsing: String($0))?.name })
    }

    /// The names of the folder's regular files: a folder or a symbolic link named like a report
    /// is none the run wrote, and the index linked it as one. Told from the directory's own
    /// entry types (no `stat` per name: a year of daily reports is some 1,800 of them), and
    /// with `lstat` where the file system does not say.
    static func regularFiles(in path: String) -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): names.append(name)
            case Int32(DT_UNKNOWN):
                var info = stat()
                if lstat(path + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG { names.append(name) }
            default: continue
            }
        }
        return names
    }

    /// The currencies a two-currency page names in its head
    /// (`<meta name="cryptoreport-currencies" content="SEK USD">`); `nil` for any other page,
    /// one written before pages said so, or a file that cannot be read.
    static func pageCurrencies(of url: URL) -> [String]? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        // The tag is on the page's third line: the first 2,048 bytes hold it.
        guard let head = try? handle.read(upToCount: 2048) else { return nil }
        let text = String(decoding: head, as: UTF8.self)
        let marker = "<meta name=\"cryptoreport-currencies\" content=\""
        guard let start = text.range(of: marker)?.upperBound, let end = text[start...].firstIndex(of: "\"") else { return nil }
        let codes = text[start..<end].split(separator: " ").map(String.init)
        guard codes.count > 1, codes.allSatisfy({ $0.count == 3 && $0.allSatisfy { $0.isASCII && $0.isUppercase } }) else { return nil }
        return codes
    }
}
