"""Phones for the browser tests: Debian's headless Chromium, driven by Playwright.

One browser per test process, a fresh context (its own player, storage and viewport) per phone.
Never a browser download: `make test` installs Debian's chromium when it is missing, and a
missing browser fails these tests rather than skipping them.
"""
import shutil

import pytest
from playwright import sync_api

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps trying hosts this machine cannot reach.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT = 30_000  # ms: bots move through the RQ worker a moment after us
PHONE = {"width": 390, "height": 844}
# Other seats' cards appear one by one on a phone; tests that only tap through a game skip the
# pacing (a setting), those about pacing turn it on.
INSTANT = "localStorage.setItem('poyta.pace', '0')"
# A new player confirms each card in a trick game; tests that only tap through a game have
# answered "stop asking" (unless they chose otherwise), those about confirming keep it.
NO_CONFIRM = "if (localStorage.getItem('poyta.confirm') === null) localStorage.setItem('poyta.confirm', '0')"


def pytest_collection_modifyitems(items):
    for item in items:
        item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM):
        pytest.fail("Debian's chromium is missing: `make chromium` installs it")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser):
    """Opens phones: each call is a fresh browser context (its own player); page errors fail."""
    errors: list[str] = []
    contexts = []

    def open_page(color_scheme: str = "light", timeout: int = TIMEOUT, viewport: dict = PHONE,
                  locale: str = "en-GB", paced: bool = False, reduced_motion: str = "no-preference",
                  bypass_csp: bool = False, confirming: bool = False):
        # bypass_csp only for a test that injects its own tool (axe) into the page.
        context = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True,
                                      color_scheme=color_scheme, locale=locale,
                                      reduced_motion=reduced_motion, bypass_csp=bypass_csp)
        contexts.append(context)
        context.set_default_timeout(timeout)
        if not paced:
            context.add_init_script(INSTANT)
        if not confirming:
            context.add_init_script(NO_CONFIRM)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    sync_api.expect.set_options(timeout=TIMEOUT)
    yield open_page
    for context in contexts:
        for open_page in context.pages:  # a routed long-poll may still be in flight
            open_page.unroute_all(behavior="ignoreErrors")
        context.close()
    assert not errors, errors


@pytest.fixture
def page(new_page):
    return new_page()
