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

    /// The files to write and remove alongside the run's `files` and `obsolete` names.
    /// `names`: the files the run writes. The `latest` copies are copies of those files as
    /// staged (`ReportWriter.File.Contents.copy(of:)`), so no report's text is held twice.
    package func additions(for report: Report, names: [String], removing obsolete: [String]) -> (files: [ReportWriter.File], removing: [String]) {
        let present = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let removed = Set(obsolete)
        var reports = Set(present.compactMap(ReportFileName.init(parsing:)).filter { !removed.contains($0.name) })
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
        let index = IndexRenderer().render(reports: Array(reports), latest: Array(latestNames), report: report)
        extra.append(ReportWriter.File(name: Self.indexName, contents: .text(index)))
        return (extra, gone)
    }
}
