"""Passkeys in the browser, with Chromium's virtual authenticator (the DevTools protocol's
WebAuthn domain): a passkey added on Settings signs a second browser context in as the same
player from the welcome screen; it is renamed and removed on Settings; Finnish too; and one is
offered once after a finished game.

A passkey's relying party must be a host name (browsers refuse an IP address), so this app is
served at http://localhost:<port> with POYTA_PUBLIC_URL saying so.
"""
from __future__ import annotations

import re
import socket
import threading

import pytest
from playwright import sync_api
from werkzeug.serving import make_server

from api.http import create_app
from phone import call, play_by_api, start
from test_pwa_accessibility import axe_installed, serious_violations  # noqa: F401 (a fixture)

AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                 "hasUserVerification": True, "isUserVerified": True}
FINISHING_GAME = {"type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}],
                  "options": {"threshold": 1}, "pace": "none"}


@pytest.fixture
def localhost_server(redis, store_env, monkeypatch):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://localhost:{port}"
    monkeypatch.setenv("POYTA_PUBLIC_URL", base)
    server = make_server("127.0.0.1", port, create_app({**store_env, "TESTING": True}),
                         threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield base
    server.shutdown()


def virtual_authenticator(page) -> tuple[object, str]:
    session = page.context.new_cdp_session(page)
    session.send("WebAuthn.enable")
    added = session.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return session, added["authenticatorId"]


def identity(page) -> dict:
    return page.evaluate("JSON.parse(localStorage.getItem('poyta.player'))")


def test_a_passkey_brings_the_player_to_another_browser(new_page, localhost_server):
    expect = sync_api.expect
    phone = new_page()
    session, authenticator = virtual_authenticator(phone)
    start(phone, localhost_server, "Anna")
    phone.goto(f"{localhost_server}/#/settings")
    section = phone.get_by_role("region", name="Keep your player with a passkey")
    expect(section.get_by_text("No passkeys yet.")).to_be_visible()
    section.get_by_role("button", name="Add a passkey").click()
    expect(section.get_by_role("status")).to_have_text("Passkey added: it signs you in on any device.")
    [credential] = session.send("WebAuthn.getCredentials",
                                {"authenticatorId": authenticator})["credentials"]
    assert credential["isResidentCredential"] and credential["rpId"] == "localhost"

    section.get_by_role("button", name=re.compile(r"^Rename ")).click()
    section.get_by_label("Name of the passkey").fill("Anna's phone")
    section.get_by_role("button", name="Save").click()
    expect(section.get_by_role("button", name="Rename Anna's phone")).to_be_visible()

    # A second browser: the same passkey (synced, as a cloud keychain would), no player yet.
    laptop = new_page()
    laptop_session, laptop_authenticator = virtual_authenticator(laptop)
    laptop_session.send("WebAuthn.addCredential", {"authenticatorId": laptop_authenticator,
                                                   "credential": credential})
    laptop.goto(localhost_server)
    laptop.get_by_role("button", name="Sign in with a passkey").click()
    expect(laptop.locator("#who")).to_contain_text("Anna")
    assert identity(laptop)["id"] == identity(phone)["id"]
    assert identity(laptop)["token"] != identity(phone)["token"]

    # Removed, the passkey signs nobody in: a third browser stays on the welcome screen.
    section.get_by_role("button", name="Remove Anna's phone").click()
    expect(section.get_by_text("No passkeys yet.")).to_be_visible()
    tablet = new_page()
    tablet_session, tablet_authenticator = virtual_authenticator(tablet)
    tablet_session.send("WebAuthn.addCredential", {"authenticatorId": tablet_authenticator,
                                                   "credential": credential})
    tablet.goto(localhost_server)
    tablet.get_by_role("button", name="Sign in with a passkey").click()
    expect(tablet.get_by_text(re.compile(r"^That passkey did not sign you in"))).to_be_visible()
    assert identity(tablet) is None


def test_passkeys_speak_finnish_and_pass_the_accessibility_audit(axe_installed, new_page,
                                                                 localhost_server):
    expect = sync_api.expect
    phone = new_page(locale="fi-FI", bypass_csp=True)
    virtual_authenticator(phone)
    phone.goto(localhost_server)
    expect(phone.get_by_role("button", name="Kirjaudu pääsyavaimella")).to_be_visible()
    assert serious_violations(phone) == [], "welcome"
    start(phone, localhost_server, "Anna")
    phone.goto(f"{localhost_server}/#/settings")
    section = phone.get_by_role("region", name="Säilytä pelaajasi pääsyavaimella")
    section.get_by_role("button", name="Lisää pääsyavain").click()
    expect(section.get_by_role("status")).to_have_text(
        "Pääsyavain lisätty: sillä kirjaudut millä tahansa laitteella.")
    expect(section.get_by_role("button", name=re.compile(r"^Nimeä uudelleen: "))).to_be_visible()
    assert serious_violations(phone) == [], "settings"


def test_a_passkey_is_offered_once_after_a_finished_game(new_page, live_server):
    expect = sync_api.expect
    phone = new_page()
    start(phone, live_server, "Anna")
    game = call(phone, live_server, "POST", "/games", FINISHING_GAME)
    play_by_api(phone, live_server, game["id"], lambda view: view["status"] == "finished")
    phone.goto(f"{live_server}/#/game/{game['id']}")
    offer = phone.locator(".outcome .passkey-offer")
    expect(offer).to_contain_text("Keep your player: add a passkey")
    expect(offer.get_by_role("button", name="Add a passkey")).to_be_visible()
    # It stays while the result is drawn again (the rating changes arrive a moment later).
    expect(phone.locator(".outcome td.rating-change").first).not_to_be_empty()
    expect(offer).to_be_visible()

    phone.reload()
    expect(phone.locator(".outcome")).to_be_visible()
    expect(phone.locator(".passkey-offer")).to_have_count(0)
