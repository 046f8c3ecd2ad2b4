#!/usr/bin/env python3
"""What a reader of the HTML page feels, measured in Debian's Chromium through Playwright: the time
from a click (sort by 24 h, switch SEK/USD) or clearing the search to the next painted frame
(performance.now() at the input, then two requestAnimationFrame callbacks) and to the frame after the
rows off screen are back (the table without aria-busy), each from a page at rest; DOMContentLoaded, the
number of elements and the file's size; each at full speed and with the CPU 4x slower (CDP's
Emulation.setCPUThrottlingRate). Medians of RUNS tries.

    python3 Scripts/bench-page.py PAGE.html [RUNS]
"""
import os
import statistics
import sys

from playwright.sync_api import sync_playwright

path = os.path.abspath(sys.argv[1])
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 7

TIMED = """async (action) => {
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  // From a page at rest: the list done with the rows of the action before (aria-busy gone).
  while (document.querySelector('[aria-busy]')) await frame();
  await frame();
  const start = performance.now();
  if (action === 'sort') document.querySelector('th [data-k="c"]').click();
  if (action === 'switch') document.querySelector('#currency-switch button[aria-pressed="false"]').click();
  if (action === 'search') { const s = document.getElementById('search'); s.value = 'btc'; s.dispatchEvent(new Event('input')); await frame();
    const again = performance.now(); s.value = ''; s.dispatchEvent(new Event('input')); await frame();
    const shown = performance.now() - again; while (document.querySelector('[aria-busy]')) await frame(); await frame(); return [shown, performance.now() - again]; }
  await frame();
  const painted = performance.now() - start;
  while (document.querySelector('[aria-busy]')) await frame();
  await frame();
  return [painted, performance.now() - start];
}"""

with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium")
    print("%s: %.0f KB" % (os.path.basename(path), os.path.getsize(path) / 1024))
    for rate in (1, 4):
        times = {"sort": [], "switch": [], "search": [], "dcl": []}
        whole = {"sort": [], "switch": [], "search": []}
        for _ in range(runs):
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            cdp = page.context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
            page.goto("file://" + path)
            page.wait_for_load_state("load")
            times["dcl"].append(page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"))
            elements = page.evaluate("document.getElementsByTagName('*').length")
            for action in ("sort", "switch", "search"):
                painted, complete = page.evaluate(TIMED, action)
                times[action].append(painted)
                whole[action].append(complete)
            page.close()
        print("CPU %dx: sort %.0f ms, SEK/USD %.0f ms, clearing the search %.0f ms, DOMContentLoaded %.0f ms, %d elements" % (
            rate, statistics.median(times["sort"]), statistics.median(times["switch"]), statistics.median(times["search"]),
            statistics.median(times["dcl"]), elements))
        print("        the whole list drawn (the rows off screen come after the first frame): sort %.0f ms, SEK/USD %.0f ms, clearing the search %.0f ms" % (
            statistics.median(whole["sort"]), statistics.median(whole["switch"]), statistics.median(whole["search"])))
    browser.close()
