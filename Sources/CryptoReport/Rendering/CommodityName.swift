/// A base asset's name as a commodity in a plain-text accounting file, or why it has none.
///
/// hledger and Ledger take a bare name of letters only and a quoted one otherwise (`"1INCH"`).
/// Beancount takes upper case `A-Z 0-9 ' . _ -`, 24 characters at most, starting with a letter
/// and ending with a letter or digit, and has no quoting: a name starting with a digit gets an
/// `X` in front (`1INCH` → `X1INCH`, as ISO 4217 marks units that are no country's money, XAU,
/// XBT), and is the same in every file, so that a ledger keeps one name for the asset.
package enum CommodityName {
    package enum Dialect: Sendable {
        case ledger
        case beancount
    }

    /// `nil` when the asset's name cannot be written in the dialect at all.
    package static func name(of asset: String, in dialect: Dialect) -> String? {
        let upper = asset.uppercased()
        guard !upper.isEmpty else { return nil }
        let scalars = upper.unicodeScalars
        switch dialect {
        case .ledger:
            if scalars.allSatisfy(isLetter) { return upper }
            // Inside quotes anything but a quote, a line break or a comment character reads back.
            guard scalars.allSatisfy({ isLetter($0) || isDigit($0) || "'._-".unicodeScalars.contains($0) }) else { return nil }
            return "\"\(upper)\""
        case .beancount:
            guard scalars.allSatisfy({ isLetter($0) || isDigit($0) || "'._-".unicodeScalars.contains($0) }) else { return nil }
            var name = upper
            if let first = scalars.first, !isLetter(first) { name = "X" + name }
            guard name.count <= 24, let last = name.unicodeScalars.last, isLetter(last) || isDigit(last) else { return nil }
            return name
        }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool { scalar >= "A" && scalar <= "Z" }
    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar >= "0" && scalar <= "9" }
}
