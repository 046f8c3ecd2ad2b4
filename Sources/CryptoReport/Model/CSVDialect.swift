/// How the CSV files are written (`--csv-dialect`).
public enum CSVDialect: String, Sendable, Codable, CaseIterable {
    /// RFC 4180 with `.` decimals: the machine-readable file, unchanged since the first version.
    case rfc4180
    /// What a spreadsheet in the report's locale opens as columns of numbers: a byte-order mark
    /// (so that Excel reads UTF-8), and for a decimal-comma locale `;` between cells and `,` as
    /// the decimal mark.
    case excel
}
