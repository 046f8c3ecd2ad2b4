package import Foundation

/// A notice of fired alerts as it reaches a person: `text`, one line per alert in the report's
/// language and number style (with the page's link when `--link-base` says where the folder is
/// published), and the JSON `{"text": …, "alerts": […]}` that Slack, Mattermost and most webhook
/// receivers read.
package struct AlertNotice: Sendable, Equatable {
    package var text: String
    /// The `alerts` array's JSON, each alert as the alerts CSV has it.
    package var alerts: String

    package init(text: String, alerts: String) {
        self.text = text
        self.alerts = alerts
    }

    package init(report: Report, alerts fired: [FiredAlert], linkBase: String?) {
        var only = report
        only.alerts = fired
        let strings = PageStrings(localeIdentifier: report.localeIdentifier)
        let messages = AlertText.messages(only, strings: strings, inReportLocale: true)
        let page = "cryptoreport-\(report.dataDate)-\(report.currency).html"
        // A market the page's table leaves out has no place on it to link to: the page itself.
        let onPage = Set(report.rows.map { $0.symbol.lowercased() })
        text = zip(fired, messages).map { alert, message in
            guard let base = linkBase else { return message }
            let separator = base.hasSuffix("/") ? "" : "/"
            let anchor =
                alert.rule.watchesHoldings ? "#holdings" : onPage.contains(alert.symbol.lowercased()) ? "#\(alert.symbol.lowercased())" : ""
            return "\(message) \(base)\(separator)\(page)\(anchor)"
        }.joined(separator: "\n")
        // As the JSON report lists alerts, each message in the report's language.
        let items = zip(fired, messages).map { alert, message in
            JSONRenderer.AlertItem(
                rule: alert.rule.description, symbol: alert.symbol, value: DecimalParts.plainText(alert.value), unit: alert.unit, message: message)
        }
        alerts = (try? String(decoding: Self.encoder.encode(items), as: UTF8.self)) ?? "[]"
    }

    /// The same notice sent later: each line says when it was first meant to arrive.
    package func late(since time: Date) -> AlertNotice {
        let prefix = "(late, from \(ReportDates.minute(time))) "
        return AlertNotice(text: text.split(separator: "\n").map { prefix + $0 }.joined(separator: "\n"), alerts: alerts)
    }

    /// The body a webhook is sent.
    package var json: Data {
        let head = (try? Self.encoder.encode(["text": text])) ?? Data("{}".utf8)
        // {"text":"…"} with the alerts added before its closing brace.
        return head.dropLast() + Data(",\"alerts\":".utf8) + Data(alerts.utf8) + Data("}".utf8)
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
