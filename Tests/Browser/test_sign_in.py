# SPDX-License-Identifier: Apache-2.0
"""Signing in and out of `photomap serve` in a browser, with the keyboard alone: the header's "Sign in"
link to the form and back to the page it was left from, the signed-in header (the viewer's name and a
"Sign out" button) fitting a phone and a desktop, axe-core finding nothing on the form and on signed-in
pages in light and dark mode, signing out, and a wrong password refused without saying whether the name
exists; the owner's header on every kind of page of a served local catalog (place, photo, the map of
everything, trips, places visited, a search) at 320, 390 and 1280 px. Every test is bounded in time
(Playwright's timeouts and an alarm), and the server is stopped."""

import json
import os
import signal
import subprocess

import pytest

from conftest import new_page, settle
from test_access import HEADER_BOXES, axe_violations, device, overlap
from test_edit_location import photomap
from test_edit_many import keep_screenshot
from test_edit_many import opened as edit_many_opened
from test_edit_many import served  # noqa: F401  (a local catalog with its owner, served)
from test_pages import BINARY, REYKJAVIK, cache_in, no_trouble
from test_serve import start_serve

NAME = "olga"
PASSWORD = "correct horse battery"
# The header's parts, with its links and the signed-in name: none may overlap another or leave the screen.
ACCOUNT_BOXES = HEADER_BOXES.replace("header .search-status'", "header .search-status, header a, header .account-name'")
assert ACCOUNT_BOXES != HEADER_BOXES


@pytest.fixture(autouse=True)
def bounded():
    """Fails a test still running after 150 s instead of letting it hang the run."""
    def expired(signum, frame):
        raise TimeoutError("the test took over 150 s")
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(150)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The embedded catalog served, with its owner added as a user."""
    work = tmp_path_factory.mktemp("sign-in")
    added = subprocess.run([str(BINARY), "users", "add", NAME, "--role", "owner", "--password-stdin"],
                           input=PASSWORD + "\n", capture_output=True, text=True, timeout=120,
                           env={**os.environ, "PHOTOMAP_CACHE": str(cache_in(work, None))})
    assert added.returncode == 0, added.stderr
    process, base = start_serve(work)
    try:
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def opened(browser, base, screen, scheme="light"):
    """A new browser session on `screen`, its actions bounded; (session, page)."""
    session = new_page(browser, **device(screen), color_scheme=scheme)
    page = next(session)
    page.set_default_timeout(20_000)
    page.set_default_navigation_timeout(30_000)
    page.allow_origin(base)
    return session, page


def tab_to(page, selector, presses=60):
    """Presses Tab until the element `selector` names has the focus."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return
    pytest.fail(f"{presses} presses of Tab never reached {selector}")


def sign_in_with_keys(page, name, password):
    """On the sign-in form: the name, the password and Enter, typed."""
    page.wait_for_selector("form.sign-in")
    tab_to(page, "#sign-in-name")
    page.keyboard.type(name)
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "sign-in-password"
    page.keyboard.type(password)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    settle(page)


def signed_in(browser, base, screen, scheme="light"):
    """A new page on `screen`, signed in as the owner from Reykjavík's page with the keyboard; (session, page)."""
    session, page = opened(browser, base, screen, scheme)
    page.goto(f"{base}/places/{REYKJAVIK}", wait_until="load")
    tab_to(page, "header a.account")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith("/login")
    sign_in_with_keys(page, NAME, PASSWORD)
    return session, page


@pytest.mark.parametrize("screen", ["320", "1280"])
def test_sign_in_returns_to_the_page_left_and_the_header_fits(browser, server, screen):
    session, page = signed_in(browser, server, screen)
    assert page.url == f"{server}/places/{REYKJAVIK}", "back to the page the sign-in started from"
    assert page.inner_text("header .account-name") == NAME
    assert page.inner_text("header form.account button") == "Sign out"
    assert page.locator("header a.account").count() == 0
    layout = page.evaluate(ACCOUNT_BOXES)
    assert layout["scrollWidth"] <= layout["width"], "the page is wider than the screen"
    boxes = layout["boxes"]
    names = [box["name"] for box in boxes]
    assert "span.account-name" in names and "button" in names, names
    for i, a in enumerate(boxes):
        assert a["left"] >= 0 and a["right"] <= layout["width"] + 0.5, f"{a['name']} leaves the viewport"
        for b in boxes[i + 1:]:
            if a["name"].startswith("input.timeline-") and b["name"].startswith("input.timeline-"):
                continue
            assert not overlap(a, b), f"{a['name']} overlaps {b['name']}"
    no_trouble(page)
    session.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("screen", ["390", "1280"])
def test_axe_finds_nothing_on_the_form_or_a_signed_in_page(browser, server, screen, scheme):
    session, page = opened(browser, server, screen, scheme)
    page.goto(f"{server}/login", wait_until="load")
    assert axe_violations(page) == []
    session.close()
    session, page = signed_in(browser, server, screen, scheme)
    for path in ["/", "/recent", f"/places/{REYKJAVIK}"]:
        page.goto(server + path, wait_until="load")
        settle(page)
        assert page.inner_text("header .account-name") == NAME, path
        assert axe_violations(page) == [], path
    session.close()


def test_sign_out_with_the_keyboard_alone(browser, server):
    session, page = signed_in(browser, server, "390")
    tab_to(page, "header form.account button")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    settle(page)
    assert page.inner_text("header a.account") == "Sign in"
    assert page.locator("header .account-name").count() == 0
    assert page.evaluate("() => fetch('/api/session').then(r => r.json()).then(j => j.user)") is None
    # The page after is anonymous too, not only the one the sign-out landed on.
    page.goto(f"{server}/places/{REYKJAVIK}", wait_until="load")
    assert page.locator("header .account-name").count() == 0
    no_trouble(page)
    session.close()


def test_a_wrong_password_is_refused_alike_for_a_known_and_an_unknown_name(browser, server):
    said = {}
    for name in [NAME, "nobody-here"]:
        session, page = opened(browser, server, "390", "dark")
        page.goto(f"{server}/login", wait_until="load")
        with page.expect_response(lambda r: r.url.endswith("/login") and r.request.method == "POST") as answer:
            sign_in_with_keys(page, name, "not the password at all")
        said[name] = (answer.value.status, page.inner_text("[role=alert]"))
        assert page.locator("header .account-name").count() == 0
        assert page.evaluate("() => fetch('/api/session').then(r => r.json()).then(j => j.user)") is None
        assert axe_violations(page) == []
        session.close()
    assert said[NAME] == said["nobody-here"] == (401, "That name and password do not match.")


# Whether a word of the title is broken across lines (a title squeezed to a few letters a line is).
TITLE_WORDS_BROKEN = """() => {
    const text = document.querySelector('header h1').firstChild, broken = [];
    const words = /\\S+/g;
    for (let found; (found = words.exec(text.data));) {
        const range = document.createRange();
        range.setStart(text, found.index);
        range.setEnd(text, found.index + found[0].length);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(found[0]);
    }
    return broken;
}"""


@pytest.mark.parametrize("screen", ["320", "390", "1280"])
def test_the_owners_header_fits_every_kind_of_page(browser, served, screen):
    """Signed in as the owner, on a place, a photo, the map of everything, the trips, the places visited
    and a search: the name and "Sign out" show, nothing overlaps or leaves the screen, the title keeps its
    words whole, every control is 44 px on a phone, and the header is at most a row of them taller than
    the same page's for someone signed out."""
    base, env = served["base"], served["env"]
    photo = json.loads(photomap(env, "--source", "local", "photos", "--place", served["ljubljana"], "--json"))[0]["id"]
    session, page = edit_many_opened(browser, served, f"/places/{served['ljubljana']}", screen)
    signed_out, anonymous = edit_many_opened(browser, served, "/", screen, name=None)
    for path in [f"/places/{served['ljubljana']}", f"/photos/{photo}", "/map", "/trips", "/visited", "/", "search"]:
        for shown in (anonymous, page):
            if path == "search":  # on the top places, as the one before
                shown.fill("form.search input", "Bled")
                shown.press("form.search input", "Enter")
                shown.wait_for_selector(".search-legend", state="visible")
            else:
                shown.goto(base + path, wait_until="load")
                settle(shown)
        assert anonymous.locator("header .account-name").count() == 0
        height = anonymous.locator("header").bounding_box()["height"]
        assert page.inner_text("header .account-name") == "owner", path
        assert page.inner_text("header form.account button") == "Sign out", path
        layout = page.evaluate(ACCOUNT_BOXES)
        assert layout["scrollWidth"] <= layout["width"], f"{path}: the page is wider than the screen"
        boxes = layout["boxes"]
        for i, a in enumerate(boxes):
            assert a["left"] >= 0 and a["right"] <= layout["width"] + 0.5, f"{path}: {a['name']} leaves the screen"
            for b in boxes[i + 1:]:
                if not (a["name"].startswith("input.timeline-") and b["name"].startswith("input.timeline-")):
                    assert not overlap(a, b), f"{path}: {a['name']} overlaps {b['name']}"
        assert page.evaluate(TITLE_WORDS_BROKEN) == [], f"{path}: the title is squeezed"
        if screen != "1280":
            small = page.evaluate("""() => [...document.querySelectorAll('header a, header button, header input')]
                .map(e => [e.outerHTML.slice(0, 60), e.getBoundingClientRect()])
                .filter(([, r]) => r.width > 0 && (r.width < 44 || r.height < 44)).map(([html]) => html)""")
            assert small == [], f"{path}: touch targets under 44 px"
        assert page.locator("header").bounding_box()["height"] <= height + 44, path
        keep_screenshot(page, f"header-owner-{path.strip('/').split('/')[0] or 'top'}-{screen}.png")
        no_trouble(page)
    signed_out.close()
    session.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_in_the_owners_header_on_a_phone(browser, served, scheme):
    base = served["base"]
    session, page = edit_many_opened(browser, served, f"/places/{served['ljubljana']}", "390", scheme=scheme)
    assert axe_violations(page) == []
    for path in ["/map", "/trips", "/visited"]:
        page.goto(base + path, wait_until="load")
        settle(page)
        assert page.inner_text("header .account-name") == "owner", path
        assert axe_violations(page) == [], path
    session.close()
