"""The HTML report in a real browser: `make browser-test` (pytest; CRYPTOREPORT_BINARY names the
binary, `.build/debug/cryptoreport` by default).

Makes reports with the built binary once (the bundled sample in SEK with 30 days of synthetic
history, alert limits and holdings, in USD without history, in yen, and one with a hostile symbol),
opens them in Debian's Chromium through Playwright for Python (`executable_path`, no browser
download) and checks what a reader does, one test per thing: search, sort and its reverse, the view
kept in the address, column choice remembered, a market's detail opened and closed with figures
equal to the CSV's, no sideways scroll at 1366 and 390 px, no request, no console error, light and
dark, the page without its script, and a hostile symbol that stays text. The SEK page is in Swedish
(its locale's language), the USD page in English: the checks find things by id, role and data
attributes, never by their words, except where the words are what is checked. Waits are for
conditions (an element, two animation frames), not for time. Installs nothing: `.ci/run` installs
chromium (apt-get), pytest, playwright and axe-playwright-python when missing.
"""
import csv
import os
import re
import shutil
import subprocess
import sys
from decimal import Decimal

import pytest
from playwright.sync_api import sync_playwright

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


RECORDED = {}


def at_rest(page):
    """The list done with the last action: its rows off screen come back in steps after the
    first paint, while the table says aria-busy."""
    page.wait_for_function("() => !document.querySelector('table.markets[aria-busy]')")


def settle(page):
    """Two animation frames after the list is at rest: what the last action changed is laid out
    and painted, and the page's place is final."""
    at_rest(page)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def check(condition, what):
    """One thing the page must do: a failed check fails its test, saying what broke."""
    assert condition, what


def run(binary, *args):
    subprocess.run([binary, *args], check=True, stdout=subprocess.DEVNULL)


def make_reports(binary, folder):
    """The reports the checks read: returns {name: (html path, csv rows by symbol)}."""
    history = os.path.join(folder, "history.sqlite")
    sek = os.path.join(folder, "sek")
    holdings = ("--holding", "btc=0.5@60000 SEK", "--holding", "eth=2")
    run(binary, "--sample", "--currency", "SEK,USD", "--format", "csv", "--output", sek, "--history", history, *holdings)
    subprocess.run([sys.executable, os.path.join(ROOT, "Scripts", "demo-history.py"), history], check=True, stdout=subprocess.DEVNULL)
    # Two currencies: one page in SEK that switches to USD, and a CSV for each.
    run(binary, "--sample", "--currency", "SEK,USD", "--format", "html,csv", "--output", sek, "--history", history, *holdings,
        "--alert", "btc above 180000 SEK", "--alert", "btc below 15000 USD", "--alert", "eth below 10 USD")
    # What the history holds for BTC/USDT in each currency, by the CLI's own export: what the
    # detail's chart and earlier points must show.
    recorded = {}
    for currency in ("SEK", "USD"):
        export = subprocess.run([binary, "history", "--symbol", "btcusdt", "--currency", currency, "--days", "3650", "--history", history],
                                check=True, capture_output=True, text=True).stdout
        recorded[currency] = [(row["time"][:10], row["price"]) for row in csv.DictReader(export.splitlines())]
    usd = os.path.join(folder, "usd")
    run(binary, "--sample", "--currency", "USD", "--format", "html,csv", "--output", usd, "--no-history")
    # An American page with the month of history (a copy: this run records its day too).
    usd_history = os.path.join(folder, "usd-history.sqlite")
    shutil.copyfile(history, usd_history)
    usd_dated = os.path.join(folder, "usd-dated")
    run(binary, "--sample", "--currency", "USD", "--format", "html", "--output", usd_dated, "--history", usd_history)
    # The yen has no decimals of its own: prices from a thousand up are whole yen.
    jpy = os.path.join(folder, "jpy")
    run(binary, "--sample", "--currency", "JPY", "--format", "html,csv", "--output", jpy, "--no-history")
    # A symbol that would end the page's script if it were not escaped, beside a real market.
    hostile_symbol = "</script><script>alert(1)</script>"
    tickers = os.path.join(folder, "hostile.json")
    with open(tickers, "w") as out:
        out.write('[{"symbol":"%susdt","baseAsset":"%s","quoteAsset":"usdt","openPrice":"1","lowPrice":"1",'
                  '"highPrice":"2","lastPrice":"1.5","volume":"1000","bidPrice":"1.4","askPrice":"1.6","at":1669078292000},'
                  '{"symbol":"btcusdt","baseAsset":"btc","quoteAsset":"usdt","openPrice":"16000","lowPrice":"15900",'
                  '"highPrice":"16500","lastPrice":"16100","volume":"10","bidPrice":"16090","askPrice":"16110","at":1669078292000}]'
                  % (hostile_symbol.replace("/", "\\/"), hostile_symbol.replace("/", "\\/")))
    hostile = os.path.join(folder, "hostile")
    run(binary, "--tickers-url", tickers, "--ecb-url", os.path.join(ROOT, "Samples", "eurofxref-daily-2022-11-21.xml"),
        "--currency", "USD", "--format", "html,csv", "--output", hostile, "--no-history", "--allow-stale")

    # A reader's template made before the converter's swap button: the script must work on
    # without it (its absence ended the whole script: no search, sort or converter).
    older = os.path.join(folder, "older-templates")
    os.makedirs(older)
    with open(os.path.join(ROOT, "Templates", "report.html.mustache")) as f:
        template = f.read()
    stripped = re.sub(r'<button type="button" id="conv-swap"[^>]*>⇄</button>', "", template)
    assert stripped != template, "the built-in template has its swap button"
    with open(os.path.join(older, "report.html.mustache"), "w") as f:
        f.write(stripped)
    older_out = os.path.join(folder, "older")
    run(binary, "--sample", "--currency", "SEK", "--format", "html", "--output", older_out, "--no-history", "--templates", older)

    # Many alerts (31 markets moved 10 % or more): five shown, the rest folded.
    alerts = os.path.join(folder, "alerts")
    run(binary, "--sample", "--currency", "SEK", "--format", "html", "--output", alerts, "--no-history", "--alert", "any move 10 %")

    def report(path, currency):
        html = os.path.join(path, "cryptoreport-2022-11-22-%s.html" % currency)
        with open(os.path.join(path, "cryptoreport-2022-11-22-%s.csv" % currency)) as f:
            rows = {row["symbol"]: row for row in csv.DictReader(f)}
        return html, rows

    with open(os.path.join(sek, "cryptoreport-2022-11-22-USD.csv")) as f:
        sek_page_usd = {row["symbol"]: row for row in csv.DictReader(f)}
    holdings_csv = {}
    for currency in ("SEK", "USD"):
        with open(os.path.join(sek, "cryptoreport-2022-11-22-%s-holdings.csv" % currency)) as f:
            holdings_csv[currency] = {row["asset"]: row for row in csv.DictReader(f)}
    return {"sek": report(sek, "SEK"), "sek_page_usd": sek_page_usd, "holdings": holdings_csv, "recorded": recorded, "usd": report(usd, "USD"), "jpy": report(jpy, "JPY"), "hostile": report(hostile, "USD"), "hostile_symbol": hostile_symbol,
            "alerts": os.path.join(alerts, "cryptoreport-2022-11-22-SEK.html"),
            "usd_dated": os.path.join(usd_dated, "cryptoreport-2022-11-22-USD.html"),
            "older": os.path.join(older_out, "cryptoreport-2022-11-22-SEK.html")}


def people_number(text, swedish=None):
    """'171 447,35 kr', '$16,100.00', '−1,31 %' as a Decimal and the count of its fraction digits;
    `swedish` says whether the comma is the decimal one where a guess would not do ('¥2,267,749')."""
    text = text.replace("\u2212", "-").replace("\u00a0", " ").replace("\u202f", " ")
    sv = swedish if swedish is not None else ("kr" in text or ("," in text and "." not in text))
    digits = re.sub(r"[^0-9,.\-]", "", text)
    if sv:
        digits = digits.replace(".", "").replace(",", ".")
    else:
        digits = digits.replace(",", "")
    fraction = len(digits.split(".")[1]) if "." in digits else 0
    return Decimal(digits), fraction


def equal_to_csv(shown, csv_value, swedish=None):
    """The figure shown is the CSV's, rounded to the digits shown."""
    if not csv_value:
        return shown.strip() in ("", "–")
    value, fraction = people_number(shown, swedish)
    return abs(value - Decimal(csv_value)) <= Decimal(1).scaleb(-fraction) / 2


# Every chart's labels, measured by the browser: none overlaps another or comes within 0.75 px of
# it (two labels touching read as one), the low/high/limit labels stay right of the line and
# inside the picture. Returns what is wrong, per chart.
LABELS_CLEAR = """svgs => svgs.filter(svg => svg.getBoundingClientRect().width > 0).flatMap(svg => {
  const box = svg.viewBox.baseVal, texts = Array.from(svg.querySelectorAll('text')).map(t => [t, t.getBBox()]);
  const line = svg.querySelector('polyline').getBBox(), bad = [];
  texts.forEach(([t, b], i) => {
    texts.slice(i + 1).forEach(([u, c]) => {
      const m = 0.75;
      if (b.x - m < c.x + c.width && c.x - m < b.x + b.width && b.y - m < c.y + c.height && c.y - m < b.y + b.height)
        bad.push(t.textContent + ' overlaps ' + u.textContent);
    });
    if (!t.classList.contains('day') && b.x < line.x + line.width) bad.push(t.textContent + ' is on the line');
    if (b.x < box.x - 1 || b.x + b.width > box.x + box.width + 1 || b.y < box.y - 1 || b.y + b.height > box.y + box.height + 1)
      bad.push(t.textContent + ' is cut');
  });
  return bad.map(text => (svg.getAttribute('aria-label') || '') + ': ' + text);
})"""


def chart_drawn(page, symbol):
    """Waits for the open detail's chart: the script draws it on the hash change, a task after
    the click returns (a check made at once failed on a loaded machine, the chart not yet drawn)."""
    try:
        page.wait_for_selector("#%s .history svg.chart-svg" % symbol, timeout=5000)
    except Exception:
        pass  # the checks that follow say what is missing


def chart_label_px(page, symbol):
    """The open detail chart's labels as the reader sees them, in CSS pixels."""
    return page.eval_on_selector("#%s .history svg.chart-svg" % symbol,
                                 "s => s.getBoundingClientRect().width / s.viewBox.baseVal.width * parseFloat(s.getAttribute('font-size'))")


def history_drawn(page, currency, price):
    """The open #btcusdt detail's chart and earlier points, drawn by the script from the page's
    history data, against what the history holds (RECORDED[currency]) and the server's price text."""
    chart_drawn(page, "btcusdt")
    where = "in %s, " % currency
    # The detail's window starts at the 30-day change's basis, 30 days back: 31 points.
    recorded = RECORDED[currency][-31:]
    check(page.locator("#btcusdt .history svg.chart-svg").count() == 1 and page.is_visible("#btcusdt .history svg.chart-svg"),
          where + "with history the open detail has a chart drawn by the script")
    limits = page.eval_on_selector_all("#btcusdt .history svg text.limit", "t => t.map(e => e.textContent)")
    check(page.locator("#btcusdt .history svg line.limit").count() == 2 and len(limits) == 2
          and all(re.match("(över|under) ", text) for text in limits), where + "the chart draws both alert limits as lines, named in Swedish: %r" % limits)
    size = chart_label_px(page, "btcusdt")
    check(11.5 <= size <= 12.5, where + "the chart's labels are 12 px on screen, whatever the box's width: %.1f" % size)
    crossings = page.eval_on_selector_all("#btcusdt .history svg circle.cross title", "t => t.map(e => e.textContent)")
    check(crossings and all(re.match("(över|under) .* · \\d{1,2} [a-z]+$", text) for text in crossings),
          where + "a limit crossed inside the window is marked where it is crossed: %r" % crossings[:3])
    # The SEK page is Swedish, in both its currencies: so is its dated axis.
    months = ["jan", "feb", "mars", "apr", "maj", "juni", "juli", "aug", "sep", "okt", "nov", "dec"]
    def short(day):
        return "%d %s" % (int(day[8:]), months[int(day[5:7]) - 1])
    days = [day for day, _ in recorded]
    axis = page.eval_on_selector_all("#btcusdt .history svg text.day", "t => t.map(e => e.textContent)")
    check(axis == [short(days[0]), short(days[len(days) // 2]), short(days[-1])], where + "the chart's axis is dated: %r" % axis)
    # The low and high labels sit right of the line.
    clash = page.eval_on_selector_all("#btcusdt .history svg", LABELS_CLEAR)
    check(not clash, where + "the detail chart's labels touch nothing, its limits' labels included: %s" % clash[:3])
    xs = page.eval_on_selector("#btcusdt .history svg polyline", "p => p.getAttribute('points').split(' ').map(xy => +xy.split(',')[0])")
    label_xs = page.eval_on_selector_all("#btcusdt .history svg text:not(.day):not(.limit)", "t => t.map(e => +e.getAttribute('x'))")
    check(len(label_xs) == 2 and min(label_xs) > max(xs), where + "the low and high labels are right of the line")
    rows = page.eval_on_selector_all("#btcusdt .points tbody tr", "rs => rs.map(r => Array.from(r.cells).map(c => c.textContent))")
    # Dated as the axis is, with the year: one style per locale.
    def long(day):
        return "%s %s" % (short(day), day[:4])
    check([row[0] for row in rows] == [long(day) for day in days[::-1]],
          where + "the earlier points are every recorded day, newest first, dated as the axis (%d of %d): %r" % (len(rows), len(days), [row[0] for row in rows][:2]))
    check(rows and rows[0][1] == price, where + "the newest point %r is the detail's price as the server wrote it, %r" % (rows[0][1] if rows else None, price))
    newest_first = recorded[::-1]
    for index, (row, (day, value)) in enumerate(zip(rows, newest_first)):
        check(equal_to_csv(row[1], value), where + "%s: the point's price %r is the history's %s" % (day, row[1], value))
        if index + 1 < len(newest_first):
            before = Decimal(newest_first[index + 1][1])
            change = (Decimal(value) - before) / before * 100
            shown, _ = people_number(row[2])
            check(abs(shown - change) <= Decimal("0.0051"), where + "%s: the point's change %r is the history's %.4f %%" % (day, row[2], change))
        else:
            check(row[2] == "", where + "the oldest point has no change")


def watch(page):
    problems = {"requests": [], "errors": []}
    page.on("request", lambda r: problems["requests"].append(r.url) if not r.url.startswith(("file:", "data:", "about:")) else None)
    page.on("console", lambda m: problems["errors"].append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems["errors"].append(str(e)))
    page.on("dialog", lambda d: (problems["errors"].append("dialog: " + d.message), d.dismiss()))
    return problems


# The detail's facts in their order on the page, whatever the page's language.
FACTS = ["open", "high", "low", "bid", "ask", "spread", "volume", "volume_value", "ticker_time", "rate"]


def detail_facts(page, anchor):
    values = page.eval_on_selector_all("#%s .facts dd" % anchor, "d => d.map(e => e.textContent)")
    return dict(zip(FACTS, values))


# Shown as the reader sees it (its computed display), not by the attribute the script sets: a
# style that gave rows a display of their own once kept every "hidden" row on the screen.
SHOWN_ROWS = "rows => rows.filter(r => getComputedStyle(r).display !== 'none')"


def visible_symbols(page):
    at_rest(page)
    return page.eval_on_selector_all("table.markets tbody tr", "rows => (%s)(rows).map(r => r.id.slice(2))" % SHOWN_ROWS)


def visible_names(page):
    """Each shown row's symbol with its asset's name, lower case ("" when it has none)."""
    at_rest(page)
    return page.eval_on_selector_all(
        "table.markets tbody tr",
        "rows => (%s)(rows).map(r => [r.id.slice(2), ((r.querySelector('.asset-name') || {}).textContent || '').toLowerCase()])" % SHOWN_ROWS)


def name_begins(name, term):
    return any(word.startswith(term) for word in name.split())

BINARY = os.path.abspath(os.environ.get("CRYPTOREPORT_BINARY", os.path.join(ROOT, ".build", "debug", "cryptoreport")))


@pytest.fixture(scope="session")
def reports(tmp_path_factory):
    made = make_reports(BINARY, str(tmp_path_factory.mktemp("reports")))
    RECORDED.update(made["recorded"])
    with open(made["sek"][0]) as f:
        made["total"] = f.read().count('<tr id="m-')
    return made


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        yield launched
        launched.close()



def test_every_view_fits_and_draws(browser, reports):
    sek_html, _ = reports["sek"]
    usd_html, _ = reports["usd"]
    for scheme in ("light", "dark"):
        for width, height in ((1366, 900), (390, 844)):
            for name, path, remembered in (("SEK with history", sek_html, None), ("SEK page switched to USD", sek_html, "USD"),
                                           ("USD", usd_html, None)):
                context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
                if remembered:
                    context.add_init_script("localStorage.setItem('cryptoreport.currency', '%s')" % remembered)
                page = context.new_page()
                problems = watch(page)
                page.goto("file://" + path)
                settle(page)
                where = "%s, %d px, %s" % (name, width, scheme)
                check(page.evaluate("document.documentElement.scrollWidth") <= width, "no sideways scroll of the page: " + where)
                if width >= 1366:
                    check(page.evaluate("(() => { const w = document.querySelector('.table-wrap'); return w.scrollWidth <= w.clientWidth })()"),
                          "the table fits without scrolling: " + where)
                else:
                    check(page.evaluate("getComputedStyle(document.querySelector('table.markets tbody th')).position") == "sticky",
                          "on a phone the market column stays while the figures scroll: " + where)
                # Longer words (the Swedish page's) never run out of their card.
                outside = page.evaluate("""() => {
                  const bad = [];
                  document.querySelectorAll('.card').forEach(card => {
                    if (!card.offsetParent) return;
                    const box = card.getBoundingClientRect();
                    card.querySelectorAll('h2, h3, .big, .small, .breadth > span, li, dt, dd, summary, label, output, select, input').forEach(e => {
                      if (!e.offsetParent || e.closest('.table-wrap, .points, .columns > div')) return;
                      const r = e.getBoundingClientRect();
                      if (r.right > box.right + 1 || r.left < box.left - 1) bad.push(e.textContent.trim().slice(0, 30) || e.tagName);
                    });
                  });
                  return bad;
                }""")
                check(not outside, "no text runs out of its card: %s %s" % (where, outside[:5]))
                if name != "USD":
                    # The BTC card: its limits named with their direction (a word, or ▲/▼ where the
                    # margin is narrow), its axis dated at the start, the middle and the end.
                    card = page.evaluate("""() => { const svg = [...document.querySelectorAll('.charts .chart svg')]
                        .find(s => s.getBoundingClientRect().width > 0 && s.closest('.chart').querySelector('a[href="#btcusdt"]'));
                      return svg ? [[...svg.querySelectorAll('text.limit')].map(t => t.textContent), [...svg.querySelectorAll('text.day')].map(t => t.textContent)] : null; }""")
                    check(card is not None and len(card[0]) == 2 and all(re.match("(▲|▼|över|under|above|below) ", t) for t in card[0]) and len(card[1]) == 3,
                          "the BTC card's limits say their direction and its axis keeps three dates: %s %s" % (where, card))
                clash = page.eval_on_selector_all(".charts .chart svg", LABELS_CLEAR)
                check(not clash, "the cards' chart labels touch nothing: %s %s" % (where, clash[:3]))
                if name != "USD":
                    # The comparison fills its card (less the margin of its "100"), and its "100" stays in it.
                    fill = page.evaluate("""() => {
                      const svg = [...document.querySelectorAll('.compare-card svg.compare')].find(s => s.getBoundingClientRect().width > 0);
                      if (!svg) return null;
                      const card = svg.closest('.compare-card'), style = getComputedStyle(card);
                      const inner = card.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
                      const hundred = [...svg.querySelectorAll('text')].find(t => t.textContent === '100').getBoundingClientRect();
                      const right = card.getBoundingClientRect().right - parseFloat(style.paddingRight);
                      return [(hundred.right - svg.getBoundingClientRect().left) / inner, hundred.right <= right + 1];
                    }""")
                    check(fill is not None and fill[0] > 0.95 and fill[1], "the comparison with its 100 spans its card, inside it: %s %s" % (where, fill))
                            # The five cards' charts line up, a card whose price and change wrap included.
                if width >= 1366 and name != "USD":
                    bottoms = page.eval_on_selector_all(".charts .chart svg", "s => s.filter(e => e.getBoundingClientRect().width > 0).map(e => Math.round(e.getBoundingClientRect().bottom))")
                    check(len(set(bottoms)) == 1, "the cards' charts line up: %s %s" % (where, bottoms))
                check(not problems["requests"], "no network request: %s %s" % (where, problems["requests"][:3]))
                check(not problems["errors"], "no console error: %s %s" % (where, problems["errors"][:3]))
                context.close()


def test_search_sort_view_columns_and_detail(browser, reports):
    sek_html, sek_csv = reports["sek"]
    total = reports["total"]
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    problems = watch(page)
    page.goto("file://" + sek_html)
    total = len(visible_symbols(page))
    check(total == len(sek_csv) == 267, "every market of the CSV is listed (%d rows, %d in the CSV)" % (total, len(sek_csv)))

    # Search as one types: symbol, base or quote asset.
    page.fill("#search", "btc")
    shown = visible_symbols(page)
    check(0 < len(shown) < total and all("btc" in s for s in shown), "typing 'btc' keeps only its markets: %s" % shown[:5])
    page.fill("#search", "inr")
    shown = visible_symbols(page)
    check(shown and all(s.endswith("inr") or "inr" in s for s in shown), "typing 'inr' finds the INR markets (%d)" % len(shown))
    # The name as the page writes it: a slash or a space between its words.
    for typed, symbol in (("BTC/USDT", "btcusdt"), ("btc/usdt", "btcusdt"), ("BTC USDT", "btcusdt"), ("USDT/INR", "usdtinr"), ("usdt / inr", "usdtinr")):
        page.fill("#search", typed)
        shown = visible_symbols(page)
        check(symbol in shown and all(symbol[:3] in s for s in shown), "typing %r finds %s: %s" % (typed, symbol, shown[:5]))
    # The asset's name: a word of it begun is enough, and a name's inside is not ("eth" is not Tether).
    page.fill("#search", "bitcoin")
    shown = visible_names(page)
    check("btcusdt" in {s for s, _ in shown} and all(name_begins(n, "bitcoin") for _, n in shown),
          "typing 'bitcoin' finds the BTC markets by their name: %s" % shown[:5])
    check(page.text_content("#m-btcusdt .asset-name") == "Bitcoin", "the BTC/USDT row shows its name, Bitcoin")
    page.fill("#search", "Tether")
    shown = visible_names(page)
    check("usdtinr" in {s for s, _ in shown} and all(name_begins(n, "tether") for _, n in shown), "typing 'Tether' finds USDT/INR: %s" % shown[:5])
    page.fill("#search", "bitcoin cash")
    check(visible_symbols(page) == ["bchsvusdt"], "every word of a name counts: 'bitcoin cash' is BCHSV/USDT alone: %s" % visible_symbols(page))
    page.fill("#search", "zzzz-none")
    check(page.is_visible("#no-match") and not visible_symbols(page), "a search finding nothing says so")
    page.fill("#search", "")
    check(len(visible_symbols(page)) == total, "clearing the search shows every market again")

    # Sort by the 24 h change: largest first, then reversed; empty values last both ways.
    def changes():
        return [sek_csv[s]["change_pct"] for s in visible_symbols(page)]

    def ordered(values, descending):
        numbers = [Decimal(v) for v in values if v != ""]
        empties_last = all(v == "" for v in values[len(numbers):])
        return empties_last and numbers == sorted(numbers, reverse=descending)

    page.click("thead [data-k=c]")
    check(ordered(changes(), True), "a click on 24 h sorts by the change, largest first (CSV values)")
    page.click("thead [data-k=c]")
    check(ordered(changes(), False), "a second click reverses the order")
    page.click("thead [data-k=n]")
    at_rest(page)
    # In the page's language's order (localeCompare), and not the order the page came in.
    in_order = page.eval_on_selector_all(
        "table.markets tbody tr", "rows => rows.every((r, i) => i === 0 || rows[i - 1].dataset.n.localeCompare(r.dataset.n, document.documentElement.lang) <= 0)")
    names = page.eval_on_selector_all("table.markets tbody tr", "rows => rows.map(r => r.dataset.n)")
    check(in_order and names[:3] != ["USDT/INR", "MDX/USDT", "BTC/USDT"], "a click on Market sorts by name: %s" % names[:5])
    page.click("thead [data-k=x]")
    check(ordered([sek_csv[s]["volume_value"] for s in visible_symbols(page)], True), "a click on Volume value sorts by it")

    # The view lives in the fragment: a link reopens it.
    page.fill("#search", "usdt")
    # location.href, not page.url: Playwright learns of replaceState a moment later.
    address = page.evaluate("location.href")
    check("q=usdt" in address and "sort=x" in address, "the fragment holds search and sort: " + address.split("#")[-1])
    second = context.new_page()
    watch(second)
    second.goto(address)
    check(second.input_value("#search") == "usdt" and visible_symbols(second) == visible_symbols(page),
          "opening the link shows the same rows in the same order")
    second.close()

    # Show/hide columns, remembered in localStorage.
    page.click(".columns summary")
    menu = page.eval_on_selector_all("#column-choice label", "l => l.map(e => e.textContent.trim())")
    check("Spread % / Spread" in menu and "Högst / Lägst" in menu and "Volymvärde / Volym" in menu,
          "the column menu names a two-figure column's figures apart: %s" % menu)
    page.uncheck("#column-choice label:first-child input")
    check(not page.is_visible("table.markets thead th:nth-child(2)"), "unticking Price hides its column")
    page.reload()
    check(not page.is_visible("table.markets thead th:nth-child(2)"), "the hidden column stays hidden after a reload")
    page.evaluate("localStorage.clear()")
    page.reload()

    # A market's detail opens and closes, its figures those of the CSV.
    page.goto("file://" + sek_html)
    page.click("#m-btcusdt .pair a")
    check(page.is_visible("#btcusdt") and page.evaluate("location.hash") == "#btcusdt", "clicking BTC/USDT opens its detail at #btcusdt")
    title = page.evaluate("(() => { const h = document.querySelector('#btcusdt h2'); return [h.querySelector('.asset-name').textContent, h.textContent] })()")
    check(title[0] == "Bitcoin" and "BTC/USDT" in title[1] and page.get_attribute("#btcusdt", "aria-label") == "Bitcoin BTC/USDT",
          "the detail is headed by its name, Bitcoin, with the pair: %r" % title)
    facts = detail_facts(page, "btcusdt")
    row = sek_csv["btcusdt"]
    for column in ("open", "high", "low", "bid", "ask", "volume_value", "volume"):
        check(equal_to_csv(facts.get(column, "?"), row[column]), "the detail's %s %r is the CSV's %s" % (column, facts.get(column), row[column]))
    price = page.text_content("#btcusdt .chart-head .big")
    check(equal_to_csv(price, row["price"]), "the detail's price %r is the CSV's %s" % (price, row["price"]))
    history_drawn(page, "SEK", price)
    check(page.locator("#btcusdt .mini th:has-text('BTC/INR')").count() == 1, "the detail lists BTC/INR beside BTC/USDT")
    check(page.evaluate("document.activeElement.closest('#btcusdt') !== null"), "the opened detail has the keyboard focus")
    # The keys scroll the dialog, not the page behind it (on a desktop they moved the page).
    behind = page.evaluate("scrollY")
    page.keyboard.press("PageDown")
    settle(page)
    check(page.evaluate("document.getElementById('btcusdt').scrollTop") > 0 and page.evaluate("scrollY") == behind,
          "Page Down scrolls the open detail (%s), not the page behind (%s, was %s)"
          % (page.evaluate("document.getElementById('btcusdt').scrollTop"), page.evaluate("scrollY"), behind))
    page.mouse.wheel(0, 30000)
    settle(page)
    check(page.evaluate("scrollY") == behind, "a wheel past the detail's end leaves the page behind where it was")
    page.evaluate("document.getElementById('btcusdt').scrollTop = 0")
    days = page.eval_on_selector_all("#btcusdt .points tbody tr", "rs => rs.map(r => r.cells[0].tagName + ' ' + r.cells[0].scope)")
    check(days and all(d == "TH row" for d in days), "each earlier day heads its row: %r" % days[:2])
    page.keyboard.press("Shift+Tab")
    last = page.evaluate("(() => { const s = Array.from(document.querySelectorAll('#btcusdt a[href], #btcusdt button, #btcusdt [tabindex=\"0\"]')); return document.activeElement === s[s.length - 1] })()")
    check(last, "Shift+Tab from the opened detail goes to its last stop, the chosen day of its list")
    page.evaluate("document.getElementById('btcusdt').focus()")
    for _ in range(12):
        page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    check(page.evaluate("document.activeElement.closest('#btcusdt') !== null"), "Tab and Shift+Tab stay in the open detail")
    # Every earlier point is in the dialog's own scroll, none hidden in a short inner box.
    check(page.evaluate("(() => { const p = document.querySelector('#btcusdt .points'); return p.scrollHeight <= p.clientHeight + 1 })()"),
          "the earlier points are not a scroll box inside the dialog")
    page.evaluate("document.getElementById('btcusdt').scrollTop = 100000")
    scrolled = page.evaluate("document.getElementById('btcusdt').scrollTop")
    page.keyboard.press("Escape")
    check(not page.is_visible("#btcusdt"), "Escape closes the detail")
    check(page.evaluate("document.activeElement === document.querySelector('#m-btcusdt .pair a')"), "closing gives the focus back to the row's link")
    # Opened again, it shows its top (its name, price and close button), not the oldest points
    # it was closed at.
    page.click("#m-btcusdt .pair a")
    check(scrolled > 0 and page.evaluate("document.getElementById('btcusdt').scrollTop") == 0
          and page.evaluate("document.querySelector('#btcusdt .close').getBoundingClientRect().top") >= 0,
          "a detail closed scrolled down opens again at its top (was scrolled %s)" % scrolled)
    page.keyboard.press("Escape")

    def row_below_header(symbol):
        return page.evaluate("""s => { const head = document.querySelector('table.markets thead').getBoundingClientRect(),
          row = document.getElementById('m-' + s).getBoundingClientRect();
          return row.top >= head.bottom - 1 && row.bottom <= innerHeight; }""", symbol)

    # Closing leaves the reader where they were, the row in sight below the sticky header.
    page.evaluate("document.getElementById('m-ethusdt').scrollIntoView({ block: 'center' })")
    settle(page)
    before = page.evaluate("scrollY")
    page.click("#m-ethusdt .pair a")
    page.click("#ethusdt .close")
    check(not page.is_visible("#ethusdt"), "the close button closes the detail")
    check(row_below_header("ethusdt") and abs(page.evaluate("scrollY") - before) <= 1,
          "after closing, the page is where it was, the row below the sticky header (%s, was %s)" % (page.evaluate("scrollY"), before))
    page.click("#m-ethusdt .pair a")
    page.keyboard.press("Escape")
    check(row_below_header("ethusdt"), "after Escape the row is below the sticky header")
    # Opened from a chart card, it closes back at the card.
    card_link = ".cur-0 .charts .chart h2 a[href='#btcusdt']"
    page.evaluate("document.querySelector(\"%s\").scrollIntoView({ block: 'center' })" % card_link)
    settle(page)
    before = page.evaluate("scrollY")
    page.click(card_link)
    page.keyboard.press("Escape")
    check(page.evaluate("scrollY") == before and page.evaluate("document.activeElement === document.querySelector(\"%s\")" % card_link),
          "a detail opened from a chart card closes back at the card, its link focused (scrollY %s, was %s)" % (page.evaluate("scrollY"), before))
    # The same in a sorted view: the detail closes back to its fragment, which must not
    # rebuild the table (the place and the focus were lost, the reader thrown 5,000 px up).
    page.click("thead [role=button][data-k=c]")
    page.evaluate("document.getElementById('m-dogeusdt').scrollIntoView({ block: 'center' })")
    settle(page)
    before = page.evaluate("[scrollY, document.querySelector('.table-wrap').scrollTop]")
    page.click("#m-dogeusdt .pair a")
    page.keyboard.press("Escape")
    settle(page)
    after = page.evaluate("[scrollY, document.querySelector('.table-wrap').scrollTop]")
    check(after == before and "sort=c" in page.evaluate("location.hash") and row_below_header("dogeusdt")
          and page.evaluate("document.activeElement === document.querySelector('#m-dogeusdt .pair a')"),
          "sorted, a closed detail leaves the page where it was, the row's link focused (%s, was %s)" % (after, before))
    # Switched to the other currency while the detail is open: still no rebuild on closing.
    page.click("#m-dogeusdt .pair a")
    page.evaluate("document.querySelector('#currency-switch button[data-i=\"1\"]').click()")
    page.keyboard.press("Escape")
    settle(page)
    after = page.evaluate("[scrollY, document.querySelector('.table-wrap').scrollTop]")
    check(after == before and page.evaluate("document.activeElement === document.querySelector('#m-dogeusdt .pair a')"),
          "switched with a detail open, closing leaves the page where it was (%s, was %s)" % (after, before))
    page.evaluate("document.querySelector('#currency-switch button[data-i=\"0\"]').click()")
    page.click("thead [role=button][data-k=c]")
    page.evaluate("history.replaceState(null, '', location.href.split('#')[0])")
    page.click("#m-ethusdt .pair a")
    page.mouse.click(5, 450)
    check(not page.is_visible("#ethusdt"), "a click on the dimmed page around the detail closes it")
    check(not problems["requests"] and not problems["errors"], "no request or error while using the page: %s" % problems)
    context.close()


def test_without_javascript_the_list(browser, reports):
    sek_html, _ = reports["sek"]
    total = reports["total"]
    # Without its script the page is its list: every row reads, no detail is there to open
    # (the script builds them), and the tools that need the script stay hidden.
    context = browser.new_context(viewport={"width": 1366, "height": 900}, java_script_enabled=False)
    page = context.new_page()
    page.goto("file://" + sek_html + "#btcusdt")
    check(page.is_visible("#m-btcusdt") and page.locator("table.markets tbody tr").count() == 267
          and page.locator("section.detail").count() == 0 and not page.is_visible("#tools") and not page.is_visible("#converter"),
          "without JavaScript the page is its list, with no detail, and the tools that need the script stay hidden")
    check(page.locator("table.markets tbody tr").count() == total, "without JavaScript the whole table is there")
    context.close()


def test_currency_switch_and_converter(browser, reports):
    sek_html, sek_csv = reports["sek"]
    switched_csv = reports["sek_page_usd"]
    # The currency switch: every figure becomes the second currency's CSV value, and back;
    # the choice is remembered.
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    problems = watch(page)
    page.goto("file://" + sek_html)
    page.wait_for_selector(".cur-0 .compare-card svg polyline")
    starts = page.evaluate("""() => { const svg = document.querySelector('.cur-0 .compare-card svg.compare');
      const hundred = svg.querySelector('line.grid').getAttribute('y1');
      return [...svg.querySelectorAll('polyline')].map(p => p.getAttribute('points').split(' ')[0] === '0,' + hundred); }""")
    check(len(starts) == 5 and all(starts), "each market of the comparison starts on its 100 line: %s" % starts)
    check(page.locator(".cur-0 .compare-card svg polyline:visible").count() == 5
          and page.locator(".cur-0 .compare-card .legend li").count() == 5, "with history, the top five markets are compared, rebased to 100")
    check(page.is_visible("#currency-switch") and page.get_attribute("#currency-switch button:first-child", "aria-pressed") == "true"
          and page.text_content("#currency-switch button:first-child") == "SEK", "the page opens in its first currency, SEK")

    def row_figures(symbol):
        at_rest(page)
        cells = page.eval_on_selector_all("#m-%s td" % symbol, "c => c.map(e => e.innerText)")
        # Price, 24 h, (trend columns), high/low, bid/ask, spread % / spread, volume value / volume.
        two = [c.split("\n") for c in cells[-4:]]
        return {"price": cells[0], "change_pct": cells[1], "high": two[0][0], "low": two[0][1], "bid": two[1][0], "ask": two[1][1],
                "spread": two[2][1], "volume_value": two[3][0]}

    def table_matches(rows, where):
        for symbol in ("btcusdt", "ethusdt", "usdtinr", "wrxbtc") if "wrxbtc" in rows else ("btcusdt", "ethusdt", "usdtinr"):
            figures = row_figures(symbol)
            for column in ("price", "high", "low", "bid", "ask", "spread", "volume_value"):
                check(equal_to_csv(figures[column], rows[symbol][column]),
                      "%s: %s %s %r is the CSV's %s" % (where, symbol, column, figures[column], rows[symbol][column]))

    def holdings_match(currency):
        """The holdings section of the chosen currency, alone, with the figures of its CSV."""
        rows = reports["holdings"][currency]
        shown, hidden = ("#holdings", "#holdings-1") if currency == "SEK" else ("#holdings-1", "#holdings")
        check(page.is_visible(shown) and not page.is_visible(hidden), "the %s holdings section is shown, the other currency's hidden" % currency)
        total = page.text_content(shown + " .chart-head .big")
        check(equal_to_csv(total, rows["total"]["value"]), "in %s the holdings' total %r is the CSV's %s" % (currency, total, rows["total"]["value"]))
        cells = page.eval_on_selector_all(shown + " tbody tr", "rs => rs.map(r => [r.cells[0].innerText, r.cells[4].innerText])")
        check([asset for asset, _ in cells] == ["BTC", "ETH"], "the holdings list each asset: %r" % cells)
        for asset, value in cells:
            check(equal_to_csv(value, rows[asset.lower()]["value"]), "in %s %s's value %r is the CSV's %s" % (currency, asset, value, rows[asset.lower()]["value"]))
        check(page.locator(shown + " svg polyline").count() == 1, "in %s the holdings' value by day is drawn" % currency)

    table_matches(sek_csv, "in SEK")
    holdings_match("SEK")
    page.click("#currency-switch button:has-text('USD')")
    holdings_match("USD")
    check(page.get_attribute("#currency-switch button:last-child", "aria-pressed") == "true", "the USD button shows it is chosen")
    check(" USD, " in page.title() and page.is_visible(".cur-1 h1") and not page.is_visible(".cur-0 h1"),
          "the switch shows the USD summary: " + page.title())
    table_matches(switched_csv, "switched to USD")
    check(page.locator(".cur-1 .compare-card svg polyline:visible").count() == 5 and not page.is_visible(".cur-0 .compare-card"),
          "switched to USD, the comparison chart is the USD one, five markets rebased to 100")
    check("USD" in page.text_content(".cur-1 .rates") and not re.search("[0-9][\\s\u00a0]kr", page.inner_text("table.markets tbody")),
          "no kronor figure is left in the table")
    page.click("#m-btcusdt .pair a")
    facts = detail_facts(page, "btcusdt")
    for column in ("open", "high", "bid", "volume_value"):
        check(equal_to_csv(facts.get(column, "?"), switched_csv["btcusdt"][column]),
              "switched to USD, the detail's %s %r is the USD CSV's %s" % (column, facts.get(column), switched_csv["btcusdt"][column]))
    check(equal_to_csv(page.text_content("#btcusdt .chart-head .big"), switched_csv["btcusdt"]["price"]), "switched to USD, the detail's price is the USD CSV's")
    history_drawn(page, "USD", page.text_content("#btcusdt .chart-head .big"))
    # Switched with the detail open, the chart and points are drawn again in the other currency.
    page.evaluate("document.querySelector('#currency-switch button[data-i=\"0\"]').click()")
    history_drawn(page, "SEK", page.text_content("#btcusdt .chart-head .big"))
    page.evaluate("document.querySelector('#currency-switch button[data-i=\"1\"]').click()")
    history_drawn(page, "USD", page.text_content("#btcusdt .chart-head .big"))
    page.keyboard.press("Escape")
    # A limit far below the prices (eth below 10 USD) is marked at the chart's bottom edge with
    # its value, not drawn as a line that would squeeze ETH's prices into a strip.
    page.click("#m-ethusdt .pair a")
    chart_drawn(page, "ethusdt")
    far = page.eval_on_selector_all("#ethusdt .history svg text.limit", "t => t.map(e => e.textContent)")
    check(page.locator("#ethusdt .history svg line.limit").count() == 0 and len(far) == 1 and far[0].startswith("\u2193 under "),
          "a far limit is an edge marker with its value: %r" % far)
    ys = page.eval_on_selector("#ethusdt .history svg polyline", "p => p.getAttribute('points').split(' ').map(xy => +xy.split(',')[1])")
    check(max(ys) - min(ys) >= 140, "the prices keep the chart's height beside a far limit (%d px of 155)" % (max(ys) - min(ys)))
    clash = page.eval_on_selector_all("#ethusdt .history svg", LABELS_CLEAR)
    check(not clash, "the far limit's marker touches no label: %s" % clash[:3])
    page.keyboard.press("Escape")
    check("cur=USD" in page.evaluate("location.href"), "the address keeps the chosen currency: " + page.evaluate("location.hash"))
    page.reload()
    check(" USD, " in page.title() and equal_to_csv(row_figures("btcusdt")["price"], switched_csv["btcusdt"]["price"]),
          "after a reload the page stays in USD")
    page.click("#currency-switch button:has-text('SEK')")
    table_matches(sek_csv, "switched back to SEK")

    # A link naming a currency (#cur=USD, as index.html links the second currency) opens the page
    # in it, whatever the reader chose last; index.html links USD to the SEK page that way.
    fresh = browser.new_context(viewport={"width": 1366, "height": 900})
    fresh.add_init_script("if (!localStorage.getItem('cryptoreport.currency')) localStorage.setItem('cryptoreport.currency', 'SEK')")
    linked = fresh.new_page()
    linked_problems = watch(linked)
    linked.goto("file://" + os.path.join(os.path.dirname(sek_html), "index.html"))
    usd_links = linked.eval_on_selector_all("a[href*='#cur=USD']", "a => a.map(e => e.getAttribute('href'))")
    check("cryptoreport-2022-11-22-SEK.html#cur=USD" in usd_links and "cryptoreport-latest-SEK.html#cur=USD" in usd_links,
          "index.html links USD to the SEK page, opening in USD: %s" % usd_links)
    gaps = linked.evaluate("""() => { const cards = [...document.querySelectorAll('main > section.card')].map(e => e.getBoundingClientRect());
      return cards.slice(1).map((r, i) => Math.round(r.top - cards[i].bottom)); }""")
    check(gaps and all(g >= 12 for g in gaps), "index.html's cards keep a gap between them: %s" % gaps)
    linked.click("a[href='cryptoreport-2022-11-22-SEK.html#cur=USD']")
    linked.wait_for_load_state("load")
    settle(linked)
    check(" USD, " in linked.title() and linked.get_attribute("#currency-switch button[data-i='1']", "aria-pressed") == "true"
          and equal_to_csv(linked.eval_on_selector("#m-btcusdt td", "c => c.innerText"), switched_csv["btcusdt"]["price"]),
          "the index's USD link opens the page in USD: " + linked.title())
    linked.click("#currency-switch button:has-text('SEK')")
    check(linked.evaluate("location.hash") == "#cur=SEK" and " SEK, " in linked.title(), "switching writes the currency into the address")
    check(not linked_problems["requests"] and not linked_problems["errors"], "no request or error from the index's link: %s" % linked_problems)
    fresh.close()

    # The converter: 0,5 BTC is half the CSV's BTC/USDT price, in either currency; 100 USD is
    # 100 times the CSV's rate for USDT (at par with USD).
    check(page.is_visible("#converter"), "the converter is shown with the script")
    # The currencies first, then the most traded assets (the top volume list's), then all.
    lists = page.evaluate("""['#conv-from', '#conv-to'].map(s => Array.from(document.querySelector(s).children).map(e =>
        e.tagName === 'OPTGROUP' ? e.label + ':' + Array.from(e.children).map(o => o.textContent).slice(0, 3).join(',') : e.textContent))""")
    check(lists[0][:5] == ["SEK", "USD", "EUR", "INR", "USDT"] and lists[0][5].startswith("Mest handlade:") and lists[0][6].startswith("Alla, A–Ö:1INCH,AAVE")
          and lists[1][:5] == ["SEK", "USD", "EUR", "INR", "USDT"] and lists[1][5] == lists[0][5],
          "the converter lists the currencies (USDT at par with USD among them), then the most traded, then all A–Ö: %r" % [l[:7] for l in lists])
    # USDT at par with USD, as the page's rates and every USDT market have it (priced at
    # USDT/INR it was 7 % more): 1 USDT is the CSV's USD rate, and 1 BTC its BTC/USDT price.
    page.select_option("#conv-from", label="USDT")
    page.select_option("#conv-to", label="SEK")
    shown = page.text_content("#conv-result")
    check(equal_to_csv(shown, sek_csv["btcusdt"]["fx_rate"]), "1 USDT = %r, the CSV's rate for USDT %s" % (shown, sek_csv["btcusdt"]["fx_rate"]))
    page.select_option("#conv-from", label="BTC")
    page.select_option("#conv-to", label="USDT")
    shown = page.text_content("#conv-result")
    check(shown.endswith(" USDT") and equal_to_csv(shown[:-5], "15988", swedish=True), "1 BTC = %r, BTC/USDT's 15 988" % shown)
    page.select_option("#conv-to", label="SEK")
    page.select_option("#conv-from", label="BTC")
    page.fill("#conv-amount", "0,5")
    shown = page.text_content("#conv-result")
    check(equal_to_csv(shown, str(Decimal(sek_csv["btcusdt"]["price"]) / 2)),
          "0,5 BTC = %r, half the CSV's %s" % (shown, sek_csv["btcusdt"]["price"]))
    check(page.text_content("#conv-via") == "0,5 BTC via BTC/USDT, ECB-kurser från 2022-11-21",
          "the converter says the amount as read, the market and the ECB day, in Swedish: %r" % page.text_content("#conv-via"))
    # A comma that an American means as grouping reads as a decimal on a Swedish page: said.
    page.fill("#conv-amount", "1,000")
    check(page.text_content("#conv-via").startswith("1 BTC via "), "1,000 on a Swedish page is read as one, and says so: %r" % page.text_content("#conv-via"))
    page.fill("#conv-amount", "1 000 000,25")
    check(page.text_content("#conv-via").startswith("1\u00a0000\u00a0000,25 BTC via ") or page.text_content("#conv-via").startswith("1 000 000,25 BTC via "),
          "a long amount is shown whole: %r" % page.text_content("#conv-via"))
    page.fill("#conv-amount", "0,5")
    page.click("#currency-switch button:has-text('USD')")
    shown = page.text_content("#conv-result")
    check(equal_to_csv(shown, str(Decimal(switched_csv["btcusdt"]["price"]) / 2)),
          "switched to USD, 0,5 BTC = %r, half the USD CSV's %s" % (shown, switched_csv["btcusdt"]["price"]))
    page.click("#currency-switch button:has-text('SEK')")
    page.select_option("#conv-from", label="USD")
    page.fill("#conv-amount", "100")
    shown = page.text_content("#conv-result")
    check(equal_to_csv(shown, str(Decimal(sek_csv["btcusdt"]["fx_rate"]) * 100)),
          "100 USD = %r, 100 times the CSV's rate %s" % (shown, sek_csv["btcusdt"]["fx_rate"]))
    page.fill("#conv-amount", "abc")
    check(page.text_content("#conv-result") == "–" and page.get_attribute("#conv-amount", "aria-invalid") == "true",
          "a typed word is no amount, and the converter says so")
    # Marks read as a Swedish reader means them, and a dot that may mean either is refused.
    page.select_option("#conv-from", label="BTC")
    for typed, amount in (("1.000,5", "1000.5"), ("1 000,5", "1000.5"), ("1,000.5", "1000.5"), ("1.000.000", "1000000"), ("1,5", "1.5"), ("0.5", "0.5"),
                           ("1,00,000", "100000"), ("1,00,000.5", "100000.5"), ("1’000", "1000"), ("1'000,5", "1000.5")):
        page.fill("#conv-amount", typed)
        shown = page.text_content("#conv-result")
        check(equal_to_csv(shown, str(Decimal(sek_csv["btcusdt"]["price"]) * Decimal(amount))),
              "%s BTC = %r, %s times the CSV's %s" % (typed, shown, amount, sek_csv["btcusdt"]["price"]))
    page.fill("#conv-amount", "0")
    shown = page.text_content("#conv-result")
    check(people_number(shown)[1] == 2 and people_number(shown)[0] == 0, "0 BTC is %r, with two decimals (not thirteen)" % shown)
    for typed in ("1.000", "1,2,3", "1.000,000,5", "1,00,00", "10,0,000"):
        page.fill("#conv-amount", typed)
        check(page.text_content("#conv-result") == "–" and page.get_attribute("#conv-amount", "aria-invalid") == "true",
              "%r may be a thousand or one on a Swedish page, or is no number: refused" % typed)
    # The other way: kronor into a coin (the amount over the CSV's price, six significant
    # digits), the swap button turning it back, a coin into a coin, and a currency switch
    # leaving a coin's result a coin.
    btc, eth = Decimal(sek_csv["btcusdt"]["price"]), Decimal(sek_csv["ethusdt"]["price"])
    page.select_option("#conv-from", label="SEK")
    page.select_option("#conv-to", label="BTC")
    page.fill("#conv-amount", "1 000")
    shown = page.text_content("#conv-result")
    check(shown.endswith(" BTC") and equal_to_csv(shown[:-4], str(Decimal(1000) / btc), swedish=True)
          and len(people_number(shown[:-4], swedish=True)[0].normalize().as_tuple().digits) <= 6,
          "1 000 kr = %r, 1 000 over the CSV's BTC price %s, to six digits" % (shown, btc))
    check(page.text_content("#conv-via").replace("\u00a0", " ") == "1 000 SEK, BTC via BTC/USDT, ECB-kurser från 2022-11-21",
          "the reverse says the amount and the coin's market: %r" % page.text_content("#conv-via"))
    page.click("#conv-swap")
    shown = page.text_content("#conv-result")
    check(page.eval_on_selector("#conv-from", "s => s.options[s.selectedIndex].text") == "BTC"
          and page.eval_on_selector("#conv-to", "s => s.options[s.selectedIndex].text") == "SEK"
          and equal_to_csv(shown, str(btc * 1000)), "swapped, 1 000 BTC = %r in kronor" % shown)
    page.fill("#conv-amount", "1")
    page.select_option("#conv-to", label="ETH")
    shown = page.text_content("#conv-result")
    check(shown.endswith(" ETH") and equal_to_csv(shown[:-4], str(btc / eth), swedish=True), "1 BTC = %r, the CSV's prices' ratio %s" % (shown, btc / eth))
    page.click("#currency-switch button:has-text('USD')")
    check(page.text_content("#conv-result").endswith(" ETH"), "switched to USD, a coin's result stays in the coin: %r" % page.text_content("#conv-result"))
    page.click("#currency-switch button:has-text('SEK')")
    check(not problems["requests"] and not problems["errors"], "no request or error while switching: %s" % problems)
    context.close()


def test_language_and_trend_columns(browser, reports):
    sek_html, sek_csv = reports["sek"]
    usd_html, _ = reports["usd"]
    switched_csv = reports["sek_page_usd"]
    total = reports["total"]
    # The page's language: the SEK page speaks Swedish, the USD page English, and everything
    # the script does still works in Swedish (found by id, role and data attributes).
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    problems = watch(page)
    page.goto("file://" + sek_html)
    check(page.evaluate("document.documentElement.lang") == "sv", "the SEK page is <html lang=sv>")
    check(page.text_content("thead [data-k=p]") == "Pris" and page.text_content("thead [data-k=h]") == "Högst"
          and page.text_content("thead [data-k=b]") == "Köpkurs", "the SEK page's column headers are Swedish: Pris, Högst, Köpkurs")
    check(page.text_content("#markets h2") == "Alla marknader", "the table is headed Alla marknader")
    check(page.get_attribute("#search", "placeholder").startswith("Sök"), "the search box says Sök")
    check(page.text_content("#shown") == "%d marknader" % total, "the script counts in Swedish: %r" % page.text_content("#shown"))
    check(page.get_attribute("thead [role=button][data-k=p]", "title") == "Sortera efter pris", "the sort button's title is Swedish")
    # The trend columns say what they measure, and "since last" is coloured as 7 d and 30 d are.
    titles = [page.get_attribute("thead th[data-k=%s]" % k, "title") or "" for k in "swm"]
    check("förra" in titles[0] and "7 dagarna" in titles[1] and "30 dagarna" in titles[2], "the trend headers explain themselves: %s" % titles)
    at_rest(page)
    since = page.eval_on_selector_all("table.markets tbody tr td:nth-child(4)", "c => c.map(e => [e.className, e.textContent])")
    check(all(("down" in c) == t.startswith("−") and ("up" in c) == t.startswith("+") for c, t in since if t)
          and any("up" in c or "down" in c for c, t in since), "the since-last column is coloured up and down: %s" % since[:3])
    page.fill("#search", "eth")
    shown = visible_symbols(page)
    check(0 < len(shown) < total and all("eth" in s or name_begins(n, "eth") for s, n in visible_names(page))
          and "usdtinr" not in shown
          and page.text_content("#shown") == "%d av %d marknader" % (len(shown), total),
          "search filters the Swedish page and says so in Swedish: %r" % page.text_content("#shown"))
    page.fill("#search", "")
    page.click("thead [data-k=p]")
    prices = [Decimal(sek_csv[s]["price"]) for s in visible_symbols(page)]
    check(prices == sorted(prices, reverse=True), "a click on Pris sorts by the price, largest first")
    page.click("#m-btcusdt .pair a")
    check(page.is_visible("#btcusdt") and page.get_attribute("#btcusdt .close", "aria-label") == "Stäng",
          "the Swedish detail opens, its close button named Stäng")
    check(equal_to_csv(detail_facts(page, "btcusdt")["high"], sek_csv["btcusdt"]["high"]), "the Swedish detail's Högst is the CSV's high")
    page.click("#btcusdt .close")
    check(not page.is_visible("#btcusdt"), "Stäng closes the detail")
    page.click("#currency-switch button:has-text('USD')")
    check(" USD, " in page.title() and page.title().startswith("Kryptopriser")
          and page.text_content("#markets h2") == "Alla marknader" and page.is_visible(".cur-1 footer"),
          "switched to USD, the page stays Swedish: " + page.title())
    check(equal_to_csv(page.eval_on_selector("#m-btcusdt td", "c => c.innerText"), switched_csv["btcusdt"]["price"]),
          "switched to USD on the Swedish page, BTC/USDT's price is the USD CSV's")
    check(not problems["requests"] and not problems["errors"], "no request or error on the Swedish page: %s" % problems)
    context.close()
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto("file://" + usd_html)
    check(page.evaluate("document.documentElement.lang") == "en" and page.text_content("thead [data-k=p]") == "Price"
          and page.text_content("#markets h2") == "All markets", "the USD page is English: lang=en, Price, All markets")
    check(re.fullmatch(r"\d+ markets", page.text_content("#shown") or "") is not None
          and page.get_attribute("thead [role=button][data-k=p]", "title") == "Sort by price", "the USD page's script speaks English")
    context.close()


def test_yen(browser, reports):
    jpy_html, jpy_csv = reports["jpy"]
    # Yen: the table and the converter show whole yen from a thousand up, decimals below.
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    problems = watch(page)
    page.goto("file://" + jpy_html)
    shown = page.eval_on_selector("#m-btcusdt td", "c => c.innerText")
    check(people_number(shown, False)[1] == 0 and equal_to_csv(shown, jpy_csv["btcusdt"]["price"], False),
          "BTC/USDT in whole yen: %r for the CSV's %s" % (shown, jpy_csv["btcusdt"]["price"]))
    page.select_option("#conv-from", label="BTC")
    page.fill("#conv-amount", "0.5")
    shown = page.text_content("#conv-result")
    check(people_number(shown, False)[1] == 0 and equal_to_csv(shown, str(Decimal(jpy_csv["btcusdt"]["price"]) / 2), False),
          "0.5 BTC = %r in whole yen, half the CSV's %s" % (shown, jpy_csv["btcusdt"]["price"]))
    page.fill("#conv-amount", "0.0001")
    shown = page.text_content("#conv-result")
    check(people_number(shown, False)[1] == 2 and equal_to_csv(shown, str(Decimal(jpy_csv["btcusdt"]["price"]) / 10000), False),
          "0.0001 BTC = %r, below a thousand yen with two decimals" % shown)
    check(not problems["requests"] and not problems["errors"], "no request or error on the yen page: %s" % problems)
    context.close()


def test_phone_and_in_between_widths(browser, reports):
    sek_html, _ = reports["sek"]
    usd_html, _ = reports["usd"]
    # Between a phone and a desktop (a tablet, a laptop at 200 %), the page fits too: the
    # header's three facts were one unbreakable line that pushed it 1,047 px wide.
    for width in (320, 600, 768, 1024):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        for path in (sek_html, usd_html):
            page.goto("file://" + path)
            wide = page.evaluate("document.documentElement.scrollWidth")
            check(wide <= width, "at %d px the page does not scroll sideways (%d px): %s" % (width, wide, os.path.basename(path)))
        # A detail's tables (the other markets, the earlier days) fit its card: at 320 px the
        # last column was cut off.
        page.goto("file://" + sek_html + "#btcusdt")
        chart_drawn(page, "btcusdt")
        spill = page.evaluate("""() => { const card = document.querySelector('#btcusdt .detail-card').getBoundingClientRect();
          return Array.from(document.querySelectorAll('#btcusdt table')).map(t => Math.round(t.getBoundingClientRect().right - card.right)).filter(d => d > 0) }""")
        check(page.locator("#btcusdt .points").count() == 1 and not spill, "at %d px the detail's tables fit its card: %s px over" % (width, spill))
        context.close()

    # On a phone the list is the page: its first row is in the first screen, the page itself
    # scrolls (no box inside it), and fields and targets suit a finger.
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto("file://" + usd_html)
    settle(page)
    first_row = page.evaluate("document.querySelector('table.markets tbody tr').getBoundingClientRect().top")
    check(0 < first_row < 844, "on a phone the first market row is in the first screen (at %d px)" % first_row)
    check(page.evaluate("(() => { const w = document.querySelector('.table-wrap'); return w.scrollWidth <= w.clientWidth && w.scrollHeight <= w.clientHeight + 1 })()"),
          "on a phone the table is no box scrolling inside the page")
    page.goto("file://" + sek_html)
    settle(page)
    # Fields a phone does not zoom into (16 px), and targets a finger can hit.
    sizes = page.evaluate("Array.from(document.querySelectorAll('#search, #conv-amount, #conv-from, #conv-to')).map(e => parseFloat(getComputedStyle(e).fontSize))")
    check(len(sizes) == 4 and min(sizes) >= 16, "on a phone the fields' text is 16 px or more: %s" % sizes)
    heights = page.evaluate("Array.from(document.querySelectorAll('#currency-switch button')).map(e => Math.round(e.getBoundingClientRect().height))")
    check(heights and min(heights) >= 40, "on a phone the currency switch is 40 px tall or more: %s" % heights)
    check(not page.is_visible(".columns"), "on a phone the columns are market, price and 24 h, with no chooser")
    context.close()
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.goto("file://" + usd_html)
    settle(page)
    first_row = page.evaluate("document.querySelector('table.markets tbody tr').getBoundingClientRect().top")
    check(0 < first_row < 768, "at 1366 x 768 the first market row is in the first screen (at %d px)" % first_row)
    context.close()


def test_freshness_limits_and_first_run(browser, reports):
    sek_html, _ = reports["sek"]
    usd_html, _ = reports["usd"]
    # Freshness, computed when the page is read: three hours after the data, "3 hours ago";
    # years after, a warning. A market with a limit is marked in the list; a page without
    # history says when charts come.
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="sv-SE", timezone_id="Europe/Stockholm")
    context.add_init_script("(() => { const t = Date.parse('2022-11-22T03:51:33Z'); Date.now = () => t; })()")
    page = context.new_page()
    page.goto("file://" + sek_html)
    settle(page)
    age = page.text_content(".cur-0 .age")
    check(age.startswith("uppdaterad för 3 timmar sedan (22 nov. 2022 01:51)") and "old" not in page.get_attribute(".cur-0 .age", "class"),
          "three hours after its data the page says so, in the reader's zone: %r" % age)
    context.close()
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto("file://" + usd_html)
    settle(page)
    age = page.text_content(".age")
    check(age.startswith("Old data: updated ") and "years ago" in age and page.is_visible(".age.old"), "years after its data the page warns: %r" % age)
    check(page.is_visible(".charts-note") and "history" in page.text_content(".charts-note"), "a page without history says when charts and trends come")
    context.close()
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto("file://" + sek_html)
    settle(page)
    marked = page.eval_on_selector_all("table.markets tbody tr:has(.limit-mark)", "rows => rows.map(r => r.id)")
    title = page.get_attribute("#m-btcusdt .limit-mark", "title") or ""
    check("m-btcusdt" in marked and "m-ethusdt" in marked and "m-usdtinr" not in marked and "180" in title,
          "markets with a limit are marked in the list, with the limits in the mark's title: %r %r" % (marked[:5], title))
    check(not page.is_visible(".charts-note"), "a page with history has no note on charts to come")
    context.close()


def test_axe(browser, reports):
    sek_html, _ = reports["sek"]
    usd_html, _ = reports["usd"]
    # axe (its bundled axe-core, run in the page): no serious or critical violation of WCAG 2.2
    # AA or its best practices, on desktop, phone and dark, with a detail open too.
    from axe_playwright_python.sync_playwright import Axe
    axe = Axe()
    tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
    for path, width, height, scheme, opened in ((sek_html, 1366, 900, "light", ""), (sek_html, 390, 844, "light", ""),
                                                (sek_html, 1366, 900, "dark", ""), (sek_html, 1366, 900, "light", "#btcusdt"),
                                                (usd_html, 1366, 900, "light", "")):
        context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
        page = context.new_page()
        page.goto("file://" + path + opened)
        settle(page)
        found = axe.run(page, options={"runOnly": {"type": "tag", "values": tags}}).response["violations"]
        bad = [(v["id"], v["impact"], v["nodes"][0]["target"]) for v in found if v["impact"] in ("serious", "critical")]
        check(not bad, "axe: no serious or critical violation, %s at %d px, %s%s: %s" % (os.path.basename(path), width, scheme, opened, bad))
        context.close()


def test_swipe_down_closes(browser, reports):
    sek_html, _ = reports["sek"]
    # A detail swiped down from its top on a touch screen closes, as a phone's sheet does.
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto("file://" + sek_html + "#btcusdt")
    settle(page)
    swipe = """(down) => { const d = document.getElementById('btcusdt'), card = d.querySelector('.detail-card');
      const at = (y) => new Touch({ identifier: 1, target: card, clientX: 200, clientY: y });
      card.dispatchEvent(new TouchEvent('touchstart', { touches: [at(200)], changedTouches: [at(200)], bubbles: true }));
      card.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [at(200 + down)], bubbles: true })); }"""
    page.evaluate(swipe, 40)
    settle(page)
    check(page.evaluate("location.hash") == "#btcusdt", "a short swipe leaves the detail open")
    page.evaluate(swipe, 200)
    settle(page)
    check(page.evaluate("location.hash") != "#btcusdt" and not page.is_visible("#btcusdt"), "a swipe down closes the detail")
    context.close()


def test_print_on_the_locales_paper(browser, reports):
    sek_html, _ = reports["sek"]
    usd_html, _ = reports["usd"]
    # Printed on the locale's paper: Letter for en_US, A4 for sv_SE; the list before the cards.
    for path, size in ((usd_html, "792 612"), (sek_html, "841.89 595.28")):
        context = browser.new_context()
        page = context.new_page()
        page.goto("file://" + path)
        pdf = page.pdf(prefer_css_page_size=True)
        box = re.search(rb"/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]", pdf)
        got = box and (float(box.group(1)), float(box.group(2)))
        wanted = tuple(float(v) for v in size.split())
        check(got and all(abs(a - b) < 1 for a, b in zip(got, wanted)), "%s prints on its locale's paper: %s" % (os.path.basename(path), got))
        page.emulate_media(media="print")
        order = page.evaluate("document.querySelector('#markets').getBoundingClientRect().top < document.querySelector('.cards').getBoundingClientRect().top")
        check(order, "%s prints the list before the cards" % os.path.basename(path))
        context.close()


def test_switch_at_hand(browser, reports):
    sek_html, _ = reports["sek"]
    switched_csv = reports["sek_page_usd"]
    # The switch stays at hand: in view far down the list, and with a detail open it switches
    # the detail's figures instead of closing it; on a phone it does not cover the ✕.
    for width, height in ((1366, 900), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto("file://" + sek_html)
        page.evaluate("document.querySelector('table.markets tbody tr:last-child').scrollIntoView()")
        settle(page)
        check(page.is_visible("#currency-switch button[data-i='1']"), "at %d px the switch is in view far down the list" % width)
        page.goto("file://" + sek_html + "#btcusdt")
        settle(page)
        page.click("#currency-switch button[data-i='1']")
        settle(page)
        price = page.text_content("#btcusdt .chart-head .big")
        check(page.evaluate("location.hash") == "#btcusdt" and page.is_visible("#btcusdt") and equal_to_csv(price, switched_csv["btcusdt"]["price"]),
              "at %d px USD with a detail open switches the detail (%r) and leaves it open" % (width, price))
        close = page.locator("#btcusdt .close").bounding_box()
        switch = page.locator("#currency-switch").bounding_box()
        apart = close["y"] + close["height"] <= switch["y"] or switch["y"] + switch["height"] <= close["y"] or close["x"] + close["width"] <= switch["x"] or switch["x"] + switch["width"] <= close["x"]
        check(apart, "at %d px the detail's close button and the switch do not overlap" % width)
        context.close()


def test_rows_off_screen_in_steps(browser, reports):
    # A sort, a switch or a cleared search changes the rows on screen at once; the others leave
    # the list and come back after the first paint, the table saying aria-busy meanwhile; the
    # reader's next click puts them all back first, so a detail opens on any market.
    sek_html, sek_csv = reports["sek"]
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    problems = watch(page)
    page.goto("file://" + sek_html)
    settle(page)
    first = page.evaluate("""() => {
      document.querySelector('thead [data-k=c]').click();
      const body = document.querySelector('table.markets tbody');
      return { rows: body.rows.length, busy: body.parentNode.getAttribute('aria-busy'),
               bottom: body.rows[body.rows.length - 1].getBoundingClientRect().top };
    }""")
    check(first["busy"] == "true" and 0 < first["rows"] < 267 and first["bottom"] >= 900,
          "a sort puts the rows that reach the window at once (%d of 267, down to %.0f px) and says the list is busy" % (first["rows"], first["bottom"]))
    settle(page)
    symbols = visible_symbols(page)
    largest = max(Decimal(row["change_pct"]) for row in sek_csv.values() if row["change_pct"])
    check(len(symbols) == 267 and Decimal(sek_csv[symbols[0]]["change_pct"]) == largest,
          "then every row comes back in the sorted order (%d rows, first %s)" % (len(symbols), symbols[:1]))
    # Cut short by a click: the last row by the new order opens its detail.
    last = page.evaluate("""() => {
      document.querySelector('thead [data-k=c]').click();
      const waiting = document.querySelector('table.markets tbody').rows.length;
      document.body.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      return [waiting, document.querySelector('table.markets tbody').rows.length, !!document.querySelector('table.markets[aria-busy]')];
    }""")
    check(last[0] < 267 and last[1] == 267 and not last[2], "a click while rows wait puts them all back at once: %s" % last)
    last = page.evaluate("document.querySelector('table.markets tbody tr:last-child').id.slice(2)")
    page.evaluate("id => { location.hash = '#' + id; }", last)
    settle(page)
    check(page.locator(".detail:target").count() == 1, "the market at the list's end opens its detail")
    page.keyboard.press("Escape")
    settle(page)
    # A currency switch from the top of the page: the rows on screen now, the rest as they come
    # back, every one in USD; the detail built before, whose row was out of the list at the
    # switch, opens in USD too.
    page.evaluate("window.scrollTo(0, 0)")
    settle(page)
    page.click("#currency-switch button[data-i='1']")
    settle(page)
    page.evaluate("id => { location.hash = '#' + id; }", last)
    settle(page)
    price = page.text_content("#%s .chart-head .big" % last)
    check("US$" in price, "a detail built before the switch opens in dollars: %r" % price)
    page.keyboard.press("Escape")
    settle(page)
    usd = page.eval_on_selector_all("table.markets tbody tr td:nth-child(2)", "c => c.filter(e => /\\d/.test(e.textContent)).map(e => e.textContent)")
    check(len(usd) > 250 and all("US$" in text for text in usd), "after the switch every row's price is in dollars: %s" % [t for t in usd if "US$" not in t][:3])
    check(not problems["errors"], "no script error: %s" % problems["errors"][:1])
    context.close()


def test_phone_chart_and_tap(browser, reports):
    sek_html, _ = reports["sek"]
    # On a phone the detail's chart is drawn at the phone's width: labels of 12 px, not 8; turned
    # sideways, it is drawn again at the new width.
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto("file://" + sek_html + "#btcusdt")
    chart_drawn(page, "btcusdt")
    size = chart_label_px(page, "btcusdt")
    check(11.5 <= size <= 12.5, "on a phone the detail chart's labels are 12 px: %.1f" % size)
    clash = page.eval_on_selector_all("#btcusdt .history svg", LABELS_CLEAR)
    check(not clash, "on a phone the detail chart's labels touch nothing: %s" % clash[:3])
    page.evaluate("document.getElementById('btcusdt').scrollTop = 700")
    settle(page)
    top = page.evaluate("document.querySelector('#btcusdt .close').getBoundingClientRect().top")
    check(page.evaluate("document.getElementById('btcusdt').scrollTop") > 0 and 0 <= top <= 60,
          "on a phone the detail's close button stays in view as it scrolls (at %s px)" % top)
    page.emulate_media(media="print")
    check(not page.is_visible("#btcusdt") and page.is_visible("table.markets"), "printed with a detail open, the report prints, not the detail")
    page.emulate_media(media="screen")
    page.evaluate("document.getElementById('btcusdt').scrollTop = 0")
    page.keyboard.press("Escape")
    context.close()
    # A tap on a row's price opens it, as on a phone's list; a mouse's click does not (a
    # double-click copies the figure).
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    page.goto("file://" + sek_html)
    page.locator("#m-ethusdt td").first.tap()
    check(page.evaluate("location.hash") == "#ethusdt" and page.is_visible("#ethusdt"), "a tap on ETH/USDT's price opens its detail")
    page.keyboard.press("Escape")
    check(page.evaluate("document.activeElement === document.querySelector('#m-ethusdt .pair a')"), "closed, the focus is on the row's link")
    page.locator("#m-ethusdt td").first.dblclick()
    check(page.evaluate("location.hash") == "" and not page.is_visible("#ethusdt"), "a mouse's double-click on the price opens nothing")
    page.goto("file://" + sek_html + "#btcusdt")
    chart_drawn(page, "btcusdt")
    page.set_viewport_size({"width": 844, "height": 390})
    settle(page)
    size = chart_label_px(page, "btcusdt")
    drawn = page.eval_on_selector("#btcusdt .history svg.chart-svg", "s => s.viewBox.baseVal.width")
    check(11.5 <= size <= 12.5 and drawn > 500, "turned sideways, the chart is drawn again %d wide with 12 px labels: %.1f" % (drawn, size))
    context.close()


def test_template_without_swap_button(browser, reports):
    # A template without the swap button: search, sort and the converter work all the same.
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    problems = watch(page)
    page.goto("file://" + reports["older"])
    page.fill("#search", "btc")
    settle(page)
    shown = page.eval_on_selector_all("table.markets tbody tr", "rs => rs.filter(r => !r.hidden).length")
    check(page.is_visible("#tools") and 0 < shown < 20 and page.is_visible("#converter") and page.text_content("#conv-result").endswith("kr")
          and not problems["errors"], "a template without the swap button keeps the script working (%d rows, %s)" % (shown, problems["errors"][:1]))
    context.close()


def test_back_gives_focus_back(browser, reports):
    sek_html, _ = reports["sek"]
    # Closed by the browser's Back, a detail gives the focus back to the row's link, as Escape does.
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto("file://" + sek_html)
    page.evaluate("document.getElementById('m-ethusdt').scrollIntoView({ block: 'center' })")
    settle(page)
    page.click("#m-ethusdt .pair a")
    settle(page)
    page.go_back()
    settle(page)
    check(not page.is_visible("#ethusdt") and page.evaluate("document.activeElement === document.querySelector('#m-ethusdt .pair a')"),
          "closed by Back, the detail gives the focus back to the row's link (%s)" % page.evaluate("document.activeElement.tagName"))
    context.close()


def test_american_dates_and_the_detail_as_drawn(browser, reports):
    # An American page dates its axes month first (Nov 22), the cards' and the detail's alike.
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto("file://" + reports["usd_dated"] + "#btcusdt")
    chart_drawn(page, "btcusdt")
    american = re.compile(r"^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}$")
    detail_axis = page.eval_on_selector_all("#btcusdt .history svg text.day", "t => t.map(e => e.textContent)")
    card_axis = page.eval_on_selector_all(".charts svg text.day, .compare-card svg text.day", "t => t.map(e => e.textContent)")
    check(detail_axis and card_axis and all(american.match(text) for text in detail_axis + card_axis) and detail_axis[-1] == "Nov 22",
          "an en_US page's axes read month first: %r, %r" % (detail_axis, card_axis[:3]))
    listed = page.eval_on_selector_all("#btcusdt .points tbody th", "t => t.map(e => e.textContent)")
    check(listed[:2] == ["Nov 22, 2022", "Nov 21, 2022"], "the en_US detail's list of days is dated as its axis: %r" % listed[:2])

    # The detail as drawn: the newest day chosen; a row of the list (click, arrows) or the
    # chart under a pointer chooses another, moving the highlights and the chart's marker;
    # ranges the history holds redraw it.
    def picked():
        return page.evaluate("""(() => ({ line: document.querySelector('#btcusdt .pick-line').textContent,
          cx: document.querySelector('#btcusdt circle.pick').getAttribute('cx'),
          row: [...document.querySelectorAll('#btcusdt .points tbody tr')].findIndex(r => r.getAttribute('aria-selected') === 'true') }))()""")
    first = picked()
    check(first["line"].startswith("Nov 22, 2022 $15,988.00") and first["row"] == 0, "the detail opens on its newest day: %r" % first["line"])
    page.click("#btcusdt .points tbody tr:nth-child(4)")
    clicked = picked()
    check(clicked["line"].startswith("Nov 19, 2022 ") and clicked["row"] == 3 and clicked["cx"] != first["cx"] and "since Oct 23" in clicked["line"],
          "a click on a day of the list chooses it, its figures and the chart's marker: %r" % clicked["line"])
    check(page.evaluate("[...document.querySelectorAll('#btcusdt .points tbody tr')].map(r => r.tabIndex).join(' ')").split(" ").count("0") == 1
          and page.evaluate("document.querySelector('#btcusdt .points tbody tr:nth-child(4)').tabIndex") == 0,
          "the chosen day's row is the list's one Tab stop")
    page.keyboard.press("ArrowDown")
    down = picked()
    check(down["row"] == 4 and down["line"].startswith("Nov 18, 2022 ") and page.evaluate("document.activeElement.rowIndex") == 5,
          "the arrow keys move the choice along the list: %r" % down["line"])
    svg = page.locator("#btcusdt .history svg").bounding_box()
    page.mouse.move(svg["x"] + 4, svg["y"] + svg["height"] / 2)
    hovered = picked()
    check(hovered["line"].startswith("Oct 23, 2022 ") and hovered["row"] == len(listed) - 1, "a pointer over the chart shows its day: %r" % hovered["line"])
    page.click("#btcusdt .ranges button:first-child")
    week = page.locator("#btcusdt .points tbody tr").count()
    check(week == 8 and page.get_attribute("#btcusdt .ranges button:first-child", "aria-pressed") == "true" and "since Nov 15" in picked()["line"],
          "7 d draws the last week: %d days" % week)
    check(page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true", "the focus stays on the range chosen")
    page.click("#btcusdt .ranges button:last-child")
    check(page.locator("#btcusdt .points tbody tr").count() == len(listed), "all draws every day again")
    context.close()


def test_skip_link(browser, reports):
    # One Tab shows the skip link; Enter lands in the search box, past alerts and cards.
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto("file://" + reports["alerts"])
    page.keyboard.press("Tab")
    shown = page.evaluate("(() => { const e = document.activeElement; return e.className === 'skip' && e.getBoundingClientRect().top >= 0 ? e.textContent : null })()")
    check(shown == "Hoppa till marknaderna", "the first Tab shows the skip link: %r" % shown)
    page.keyboard.press("Enter")
    check(page.evaluate("document.activeElement.id") == "search" and page.evaluate("location.hash") == "",
          "Enter on it lands in the search box, the address unchanged")
    context.close()


def test_many_alerts(browser, reports):
    total = reports["total"]
    # Many alerts: five on screen, the rest behind one line; each opens its market's detail.
    for width in (1366, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        problems = watch(page)
        page.goto("file://" + reports["alerts"])
        where = "many alerts, %d px" % width
        shown = page.evaluate("[...document.querySelectorAll('.alerts li')].filter(e => e.checkVisibility()).length")
        total = page.locator(".alerts li").count()
        check(shown == 5 and total > 20, "%s: 5 of %d alerts shown before the rest are opened (%d)" % (where, total, shown))
        summary = page.locator(".alerts summary")
        check(summary.text_content() == "%d larm till" % (total - 5), "%s: the folded line counts the rest: %r" % (where, summary.text_content()))
        box = page.locator("table.markets tbody tr").first.bounding_box()
        check(box is not None and box["y"] < 900, "%s: the list starts on the first screen (at %s)" % (where, box and box["y"]))
        summary.click()
        shown = page.evaluate("[...document.querySelectorAll('.alerts li')].filter(e => e.checkVisibility()).length")
        check(shown == total, "%s: opening the line shows all %d alerts (%d)" % (where, total, shown))
        sizes = page.evaluate("[...new Set([...document.querySelectorAll('.alerts li')].map(e => getComputedStyle(e).fontSize))]")
        check(len(sizes) == 1, "%s: the folded alerts read as the first five (font sizes %s)" % (where, sizes))
        link = page.locator(".alerts details li a").last
        anchor = link.get_attribute("href")[1:]
        pair = re.search(r"[A-Z0-9]+/[A-Z]+", link.text_content()).group(0)
        link.click()
        settle(page)
        opened = page.evaluate("(() => { const d = document.querySelector('.detail:target'); return d ? [d.id, d.querySelector('h2').textContent] : null })()")
        check(opened is not None and opened[0] == anchor and pair in opened[1],
              "%s: the last alert (%s) opens its market's detail: %r" % (where, pair, opened))
        check(not problems["requests"] and not problems["errors"], "%s: no request or error: %s" % (where, problems))
        context.close()
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.emulate_media(media="print")
    page.goto("file://" + reports["alerts"])
    shown = page.evaluate("[...document.querySelectorAll('.alerts li')].filter(e => e.checkVisibility()).length")
    check(shown == page.locator(".alerts li").count(), "printed, every alert is on paper (%d of %d)" % (shown, page.locator(".alerts li").count()))
    context.close()


def test_an_address_naming_no_market(browser, reports):
    """A bookmark of a market the page no longer has (#nosuchusdt, #__proto__) opens nothing and
    stops nothing: the list's tools still work."""
    sek_html, _ = reports["sek"]
    for fragment in ("nosuchusdt", "__proto__"):
        context = browser.new_context(viewport={"width": 1366, "height": 900})
        page = context.new_page()
        problems = watch(page)
        page.goto("file://" + sek_html + "#" + fragment)
        page.wait_for_selector("#tools", state="visible")
        page.fill("#search", "btc")
        settle(page)
        check(0 < len(visible_symbols(page)) < 50 and page.locator("section.detail").count() == 0,
              "#%s: no detail, and the search still narrows the list" % fragment)
        check(not problems["errors"], "#%s: no console error %s" % (fragment, problems["errors"][:3]))
        context.close()


def test_hostile_symbol(browser, reports):
    hostile_html, _ = reports["hostile"]
    # A hostile symbol stays text.
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    problems = watch(page)
    page.goto("file://" + hostile_html)
    settle(page)
    check(not problems["errors"], "a hostile symbol runs nothing: %s" % problems["errors"])
    check(reports["hostile_symbol"] in page.text_content("table.markets"), "a hostile symbol is shown as text")
    check(page.locator("script:not([type='application/json'])").count() == 1, "the page has its own script only")
    context.close()
