#!/usr/bin/env python3
"""The pictures of docs/page.md, taken in Debian's Chromium through Playwright from a report page:
the top on a 1366 x 768 screen, what follows the list, BTC/USDT's detail after the switch to USD,
a 390 px phone, dark mode, and print.

    python3 Scripts/page-pictures.py PAGE.html docs/
"""
import os
import sys

from playwright.sync_api import sync_playwright

page_path = os.path.abspath(sys.argv[1])
out = sys.argv[2] if len(sys.argv) > 2 else "docs"
address = "file://" + page_path


def settle(page):
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium")

    def shot(name, width, height, setup=None, color_scheme="light", media="screen"):
        context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=color_scheme)
        page = context.new_page()
        page.emulate_media(media=media)
        page.goto(address)
        page.wait_for_load_state("load")
        if setup:
            setup(page)
        settle(page)
        page.screenshot(path=os.path.join(out, name))
        context.close()

    def after_list(page):
        page.evaluate("document.querySelector('#markets').nextElementSibling.scrollIntoView()")

    def detail_in_usd(page):
        page.click("#currency-switch button[data-i='1']")
        page.click("#m-btcusdt .pair a")
        page.wait_for_selector("#btcusdt .chart-svg")

    shot("report-sek.png", 1366, 768)
    shot("report-charts-converter.png", 1366, 900, after_list)
    shot("report-detail-usd.png", 1366, 900, detail_in_usd)
    shot("report-phone.png", 390, 844)
    shot("report-dark.png", 1366, 768, color_scheme="dark")
    shot("report-print.png", 1056, 816, media="print")
    browser.close()
