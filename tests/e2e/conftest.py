"""Phones for the browser tests: Debian's headless Chromium, driven by Playwright, at 390x844.

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


def pytest_collection_modifyitems(items):
    for item in items:
        item.add_marker(pytest.mark.e2e)


@pytest.fixture
def new_page():
    """Opens phones: each call is a fresh browser context (its own player); page errors fail."""
    if not shutil.which(CHROMIUM):
        pytest.fail("Debian's chromium is missing: `make chromium` installs it")
    errors: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)

        def open_page(color_scheme: str = "light", timeout: int = TIMEOUT):
            context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                          has_touch=True, color_scheme=color_scheme)
            context.set_default_timeout(timeout)
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            return page

        sync_api.expect.set_options(timeout=TIMEOUT)
        yield open_page
        browser.close()
    assert not errors, errors


@pytest.fixture
def page(new_page):
    return new_page()
