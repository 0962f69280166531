"""Signing in and out of `photomap serve` in a browser, with the keyboard alone: the header's "Sign in"
link to the form and back to the page it was left from, the signed-in header (the viewer's name and a
"Sign out" button) fitting a phone and a desktop, axe-core finding nothing on the form and on signed-in
pages in light and dark mode, signing out, and a wrong password refused without saying whether the name
exists. Every test is bounded in time (Playwright's timeouts and an alarm), and the server is stopped."""

import os
import signal
import subprocess

import pytest

from conftest import new_page, settle
from test_access import HEADER_BOXES, axe_violations, device, overlap
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
