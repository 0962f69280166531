# SPDX-License-Identifier: Apache-2.0
"""Fixtures for the in-browser tests: Debian's headless Chromium driven by Playwright, pages opened
from disk (file://), and no network at all.

Set up with scripts/install-browser-test-deps, run with `.venv-browser/bin/pytest -q Tests/Browser`.

- `browser` (session): /usr/bin/chromium (PHOTOMAP_CHROMIUM overrides it), headless. Playwright
  never downloads a browser of its own here.
- `page`: a fresh context and page. Every request that is not file:// (or to an origin the test
  allowed with `page.allow_origin("http://127.0.0.1:PORT")`, a server it started) is aborted (and listed);
  the page's Content-Security-Policy stays in force (bypass_csp is off). It collects:
    page.errors          real script errors: uncaught exceptions and unhandled rejections
                         (pageerror), as "Uncaught TypeError: … at file:///…" stack strings
    page.csp_violations  the document's securitypolicyviolation events, as dicts: directive
                         ("script-src-elem", "script-src-attr", …), blocked ("inline", "eval"
                         or a URL), source, line, sample
    page.blocked_requests  URLs this harness aborted (http, https, anything not file://)
    page.failed_loads    console "Failed to load resource: …" messages, as (url, text): aborted
                         tiles (net::ERR_BLOCKED_BY_CLIENT…), missing files (net::ERR_FILE_NOT_FOUND)
    page.console_errors  other console errors (console.error calls), as (url, text); Chromium's
                         own CSP messages are left out, being in page.csp_violations already
- `open_file(page, path)`: opens a file on disk and waits until it has loaded and its pending
  events (CSP reports among them) have reached Python.
"""

import os
import pathlib

import pytest
from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("PHOTOMAP_CHROMIUM", "/usr/bin/chromium")

# Playwright already passes --no-sandbox (its chromium_sandbox defaults to False), which Chromium
# needs as root; it is repeated so the launch does not depend on that default. The resolver rule
# answers every host name "not found" without asking DNS: Debian's Chromium otherwise looks up
# accounts.google.com and update.googleapis.com in the background, which page routing cannot see.
# 127.0.0.1 (a server a test started) is left to the routing.
LAUNCH_ARGS = ["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]

# Runs in every document before the page's own scripts, and is not subject to the page's CSP.
_REPORT_CSP = """
document.addEventListener('securitypolicyviolation', function (e) {
  window.__photomapReportCSP({
    directive: e.effectiveDirective, blocked: e.blockedURI, source: e.sourceFile,
    line: e.lineNumber, sample: e.sample, disposition: e.disposition,
  });
});
"""


@pytest.fixture(scope="session")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} not found: run scripts/install-browser-test-deps", pytrace=False)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    yield from new_page(browser)


def new_page(browser, **device):
    """A fresh context (a browser session of its own: no shared cache) and page, as `page` describes;
    `device` are Playwright's context options for a screen (viewport, is_mobile, has_touch, …)."""
    context = browser.new_context(**{"viewport": {"width": 900, "height": 650}, **device}, service_workers="block")
    blocked_requests, csp_violations, allowed = [], [], []

    # "**/*" sees file:// requests too: those go on, everything else is aborted. Requests the CSP
    # refuses never get here (Chromium blocks them first and reports a violation).
    def route(route):
        url = route.request.url
        if url.startswith("file:") or any(url.startswith(origin + "/") for origin in allowed):
            route.continue_()
        else:
            blocked_requests.append(url)
            route.abort("blockedbyclient")

    context.route("**/*", route)
    context.expose_binding("__photomapReportCSP", lambda source, report: csp_violations.append(report))
    context.add_init_script(_REPORT_CSP)

    page = context.new_page()
    page.errors = []
    page.csp_violations = csp_violations
    page.blocked_requests = blocked_requests
    page.failed_loads = []
    page.console_errors = []
    page.allow_origin = allowed.append

    def on_page_error(error):
        page.errors.append(error.stack or f"{error.name}: {error.message}")

    def on_console(message):
        if message.type != "error":
            return
        text, url = message.text, message.location.get("url", "")
        if text.startswith("Failed to load resource:"):
            page.failed_loads.append((url, text))
        elif "Content Security Policy" in text:
            pass  # reported, with details, through the securitypolicyviolation event
        else:
            page.console_errors.append((url, text))

    page.on("pageerror", on_page_error)
    page.on("console", on_console)
    yield page
    context.close()


def settle(page):
    """Lets the page's queued tasks run and their reports reach Python."""
    page.evaluate("() => new Promise(done => setTimeout(() => requestAnimationFrame(() => done()), 0))")
    page.wait_for_timeout(50)


def steady(page, expression, quiet_ms=500, timeout_ms=10000):
    """The value of the JavaScript `expression` once it has not changed for `quiet_ms` (markers are still
    being added or animated for a moment after the map says it is ready)."""
    return page.evaluate(f"""() => new Promise((done, fail) => {{
        const read = () => ({expression});
        const start = performance.now();
        let last = read(), since = start;
        const tick = () => {{
            const now = performance.now(), value = read();
            if (value !== last) {{ last = value; since = now; }}
            if (now - since >= {quiet_ms}) return done(last);
            if (now - start > {timeout_ms}) return fail(new Error('still changing: ' + last));
            requestAnimationFrame(tick);
        }};
        requestAnimationFrame(tick);
    }})""")


def open_file(page, path):
    """Opens a file on disk in `page` (file://), waits for its load event and what it queued."""
    response = page.goto(pathlib.Path(path).resolve().as_uri(), wait_until="load")
    settle(page)
    return response
