import Foundation

/// The price history, once per currency, for the page's script that draws the charts (the cards'
/// and a detail's when a reader opens it) and lists a detail's earlier points. Drawn on the server, every market's
/// chart and 30-row table would be most of the page and of its rendering, for details a reader
/// opens a few of; here each price is written once, as the page shows it.
///
/// `{"locale":"sv-SE","currency":"SEK","months":["jan",…],"days":["2022-10-24",…],"m":{"btcusdt":["171447.35 - 170012.10 …","- - -85 …"]},
///   "l":{"btcusdt":[{"v":180000.0,"d":"up","t":"above 180 000,00 kr","g":"▲ 180 000,00 kr"}]}}`
/// - `months`: the dated axis's month names in the page's language.
/// - `days`: every day any market has a price for, oldest first.
/// - `m`, by the detail's element id, two strings of one token per day (`-` for none): the price
///   with exactly the fraction digits the page shows it with, and the change from the market's
///   previous price in hundredths of a percent.
/// - `l`: the market's alert limits: where the line goes, its direction, its label, and its
///   label as a glyph and a figure, for a chart too narrow for the words.
extension ReportViewModel {
    static func historyData(_ report: Report, numbers: PeopleNumberFormatter, strings: PageStrings) -> String {
        // Positions, not copies of each row and its trend.
        let dated = report.rows.indices.filter { index in
            guard let trend = report.rows[index].trend else { return false }
            return trend.days.count == trend.series.count && trend.series.count > 1
        }
        guard !dated.isEmpty else { return "" }
        // Markets mostly share one list of days: each different list hashed once, not every day
        // of every market.
        var allDays = Set<String>()
        var previousDays: [String]?
        for index in dated {
            guard let days = report.rows[index].trend?.days, days != previousDays else { continue }
            allDays.formUnion(days)
            previousDays = days
        }
        let days = allDays.sorted()
        let position = Dictionary(days.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var json = "{\"locale\":" + jsonString(report.localeIdentifier.replacingOccurrences(of: "_", with: "-"))
        json += ",\"currency\":" + jsonString(report.currency)
        json += ",\"months\":[" + strings.months.map(jsonString).joined(separator: ",") + "]"
        if PriceChart.writesMonthFirst(report.localeIdentifier) { json += ",\"monthFirst\":true" }
        json += ",\"days\":[" + days.map(jsonString).joined(separator: ",") + "]"
        // Each market's two strings written as bytes, without a `String` per point and their
        // joins. Prices and changes are digits, `.`, `-` and spaces: nothing in them needs
        // escaping.
        var markets: [UInt8] = []
        var limits: [String] = []
        var seen = Set<String>()
        var point = [Int](repeating: -1, count: days.count)
        var change = [Int64?](repeating: nil, count: days.count)
        // Each point's slot among `days`, looked up again only when a market's days differ from
        // the one before.
        var slots: [Int?] = []
        previousDays = nil
        for rowIndex in dated {
            let market = report.rows[rowIndex]
            guard let trend = market.trend else { continue }
            let anchor = anchor(market.symbol)
            guard seen.insert(anchor).inserted else { continue }
            for index in point.indices {
                point[index] = -1
                change[index] = nil
            }
            if trend.days != previousDays {
                slots = trend.days.map { position[$0] }
                previousDays = trend.days
            }
            var previous: Double?
            for (offset, price) in trend.series.enumerated() {
                guard let index = slots[offset] else { continue }
                point[index] = offset
                let value = Sparkline.double(price)
                // A change for people, rounded to the hundredth of a percent the page shows: a
                // Double is exact enough, and a Decimal division per point would cost more than
                // the rest of the data together.
                if let previous, previous > 0 {
                    let hundredths = ((value - previous) / previous * 10_000).rounded(.toNearestOrAwayFromZero)
                    if hundredths.isFinite, abs(hundredths) < 1e15 { change[index] = Int64(hundredths) }
                }
                previous = value
            }
            if !markets.isEmpty { markets.append(UInt8(ascii: ",")) }
            markets += jsonString(anchor).utf8
            markets += ":[\"".utf8
            for (index, offset) in point.enumerated() {
                if index > 0 { markets.append(UInt8(ascii: " ")) }
                if offset >= 0 {
                    appendPlainPrice(trend.series[offset], minorUnits: numbers.minorUnits, to: &markets)
                } else {
                    markets.append(UInt8(ascii: "-"))
                }
            }
            markets += "\",\"".utf8
            for (index, hundredths) in change.enumerated() {
                if index > 0 { markets.append(UInt8(ascii: " ")) }
                guard let hundredths else {
                    markets.append(UInt8(ascii: "-"))
                    continue
                }
                if hundredths < 0 { markets.append(UInt8(ascii: "-")) }
                Sparkline.appendDigits(hundredths.magnitude, to: &markets)
            }
            markets += "\"]".utf8
            let marketLimits = Self.limits(for: market, in: report).compactMap { limit -> String? in
                let value = Sparkline.double(limit.value)
                guard value.isFinite else { return nil }
                let glyph = (limit.direction == "up" ? "▲ " : "▼ ") + numbers.money(limit.value)
                return "{\"v\":\(value),\"d\":" + jsonString(limit.direction) + ",\"t\":" + jsonString(limitLabel(limit, numbers: numbers, strings: strings))
                    + ",\"g\":" + jsonString(glyph) + "}"
            }
            if !marketLimits.isEmpty { limits.append(jsonString(anchor) + ":[" + marketLimits.joined(separator: ",") + "]") }
        }
        json += ",\"m\":{" + String(decoding: markets, as: UTF8.self) + "}"
        json += ",\"l\":{" + limits.joined(separator: ",") + "}}"
        return json
    }

    /// A price with exactly the fraction digits `PeopleNumberFormatter.money` shows it with, in
    /// plain digits (`0.000008600`), so that the script's `Intl.NumberFormat` writes the page's
    /// text: it formats a decimal string exactly, and the digits say how many to show.
    static func plainPrice(_ value: Decimal, minorUnits: Int = 2) -> String {
        var bytes: [UInt8] = []
        appendPlainPrice(value, minorUnits: minorUnits, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func appendPlainPrice(_ value: Decimal, minorUnits: Int, to bytes: inout [UInt8]) {
        let parts = DecimalParts(value)
        // The magnitude from the parts read once.
        let magnitude = parts.map { $0.isZero ? nil : $0.magnitude } ?? (value.isZero ? nil : PlainNumber.magnitude(of: value))
        let digits = PeopleNumberFormatter.moneyDigits(magnitude: magnitude, minorUnits: minorUnits)
        let start = bytes.count
        if let parts, let rounded = parts.rounded(scale: digits) {
            rounded.appendPlain(to: &bytes)
        } else {
            var input = value
            var rounded = Decimal()
            NSDecimalRound(&rounded, &input, digits, .plain)
            bytes += rounded.description.utf8
        }
        // Rounding compacts `1.2999` to `1.3`: the zeros the page shows come back.
        let shown = bytes[start...].firstIndex(of: UInt8(ascii: ".")).map { bytes.count - $0 - 1 } ?? -1
        if shown < 0 && digits > 0 { bytes.append(UInt8(ascii: ".")) }
        if digits > max(shown, 0) { bytes += repeatElement(UInt8(ascii: "0"), count: digits - max(shown, 0)) }
    }

    /// A JSON string that is safe inside `<script type="application/json">`: besides JSON's own
    /// escapes, `<`, `>` and `&` are written as `\u003c`…, so no text can end the element
    /// (`</script>`) or open a comment there.
    static func jsonString(_ text: String) -> String {
        // Most texts (a market's prices, its changes) hold nothing to escape: one scan, one copy.
        // 0xE2 leads U+2028 and U+2029 (and other scalars, which take the long way).
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x3C || $0 == 0x3E || $0 == 0x26 || $0 == 0xE2 }) {
            return "\"" + text + "\""
        }
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
