# SPDX-License-Identifier: Apache-2.0
"""The timing half of bench/edit-propagation.sh: the owner, signed in on instance A in Debian's headless
Chromium, sets a photo's location with the photo page's editor (typed coordinates, then a click on
"Save"); from that click, instance B's page of the photo is asked every 20 ms until it shows the new
coordinates. Prints one line per round (round 0 a warm-up, not counted) and the median and max in ms.

    python edit_propagation.py --a URL --b URL --photo ID --password-file FILE [--rounds 10]
"""
import argparse
import pathlib
import statistics
import sys
import threading
import time
import urllib.request

from playwright.sync_api import sync_playwright

LAUNCH_ARGS = ["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
POLL_SECONDS = 0.020
GIVE_UP_SECONDS = 30


def shown_on(base, photo, text, started, found):
    """Asks B's photo page every 20 ms from `started` until it holds `text`; puts the time in `found`."""
    while time.monotonic() - started < GIVE_UP_SECONDS:
        with urllib.request.urlopen(f"{base}/photos/{photo}", timeout=10) as answer:
            if text in answer.read(4_000_000).decode("utf-8", "replace"):
                found.append(time.monotonic())
                return
        time.sleep(POLL_SECONDS)


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--a", required=True)
    arguments.add_argument("--b", required=True)
    arguments.add_argument("--photo", required=True)
    arguments.add_argument("--password-file", required=True)
    arguments.add_argument("--rounds", type=int, default=10)
    options = arguments.parse_args()
    password = pathlib.Path(options.password_file).read_text().strip()
    on_b, saved_on_a = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=LAUNCH_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(options.a + "/") else route.abort())
        page = context.new_page()
        page.goto(f"{options.a}/login", wait_until="load")
        page.fill("#sign-in-name", "owner")
        page.fill("#sign-in-password", password)
        page.click("form button[type=submit]")
        page.wait_for_url(f"{options.a}/")
        # Round 0 warms both instances up (a first save loads what naming a place needs): shown, not counted.
        for round_ in range(0, options.rounds + 1):
            latitude, longitude = 46.3 + round_ / 1000, 14.1 + round_ / 1000
            page.goto(f"{options.a}/photos/{options.photo}", wait_until="networkidle")
            page.click(".edit-start")
            page.fill("input[name=latitude]", f"{latitude}")
            page.fill("input[name=longitude]", f"{longitude}")
            found, text = [], f"{latitude:.6f}, {longitude:.6f}"
            started = time.monotonic()
            poller = threading.Thread(target=shown_on, args=(options.b, options.photo, text, started, found))
            poller.start()
            page.click(".edit-save")
            page.wait_for_selector("body[data-location-saved]", state="attached")
            saved = time.monotonic()
            poller.join()
            if not found:
                sys.exit(f"round {round_}: instance B did not show {text} within {GIVE_UP_SECONDS} s")
            shown_ms, saved_ms = (found[0] - started) * 1000, (saved - started) * 1000
            print(f"round {round_:2}: saved on A after {saved_ms:6.0f} ms, shown on B after {shown_ms:6.0f} ms"
                  + (" (warm-up, not counted)" if round_ == 0 else ""))
            if round_ > 0:
                on_b.append(shown_ms)
                saved_on_a.append(saved_ms)
        browser.close()
    print(f"click on A to B's page showing it, {options.rounds} rounds, B polled every 20 ms: "
          f"median {statistics.median(on_b):.0f} ms, max {max(on_b):.0f} ms "
          f"(A's own page: median {statistics.median(saved_on_a):.0f} ms, max {max(saved_on_a):.0f} ms)")


if __name__ == "__main__":
    main()
