"""Passkeys (WebAuthn, with the `webauthn` library): an identity that outlives the device.

A signed-in player registers passkeys; anyone holding one signs in on any device, which gets a
new bearer token of its own, as a sign-in code gives. The credentials are discoverable (the
authenticator keeps the player's id as the user handle), so a sign-in names no player before
the passkey answers, and the handle finds the credential among the player's keys.

A credential id is one player's: registering one that another player holds is 409.

Every ceremony answers one challenge, taken once from Redis: an answer to a used, expired or
unknown challenge, from another origin or relying party, or signed by a key not the player's,
is refused and changes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass

import webauthn
from webauthn.helpers import (base64url_to_bytes, bytes_to_base64url, options_to_json_dict,
                              parse_authentication_credential_json, parse_client_data_json)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (AuthenticatorSelectionCriteria, AuthenticatorTransport,
                                      PublicKeyCredentialDescriptor, ResidentKeyRequirement,
                                      UserVerificationRequirement)

from api.settings import Settings
from api.storage.passkeys import NEW, TAKEN
from api.storage.store import Storage
from api.tables.clock import Clock
from api.tables.errors import Conflict, NotFound, Unprocessable
from api.tables.model import NewPlayer, Player, iso
from api.tables.players import Players

RP_NAME = "Pöytä"
CEREMONY_MILLISECONDS = 120_000            # what the browser is asked to wait for the passkey
CHALLENGE_SECONDS = CEREMONY_MILLISECONDS // 1000 + 30  # and a moment for the answer to arrive
MOST_PASSKEYS = 20
REFUSED = (WebAuthnException, ValueError, KeyError, TypeError)


def refused(what: str, error: Exception | None = None) -> Unprocessable:
    return Unprocessable(f"{what}: {error}" if error else what)


@dataclass(frozen=True)
class Passkey:
    id: str             # the credential id, base64url
    name: str
    created: str
    last_used: str | None
    backed_up: bool     # the passkey is synced to the player's other devices (a cloud keychain)


def _passkey(credential_id: str, entry: dict) -> Passkey:
    return Passkey(credential_id, entry["name"], iso(entry["created"]),
                   iso(entry["last_used"]) if entry.get("last_used") else None,
                   bool(entry.get("backed_up")))


def _transports(names) -> list[AuthenticatorTransport]:
    known = {transport.value: transport for transport in AuthenticatorTransport}
    return [known[name] for name in names or () if name in known]


class Passkeys:
    def __init__(self, storage: Storage, players: Players, settings: Settings, clock: Clock):
        self.store = storage.passkeys
        self.players = players
        self.rp_id = settings.rp_id
        self.origin = settings.origin
        self.clock = clock

    # ---------------------------------------------------------------- registration
    def registration_options(self, player: Player) -> dict:
        """PublicKeyCredentialCreationOptions (JSON) for navigator.credentials.create; the
        player's earlier registration under way stops working."""
        options = webauthn.generate_registration_options(
            rp_id=self.rp_id, rp_name=RP_NAME, user_id=player.id.encode(),
            user_name=player.name, user_display_name=player.name,
            timeout=CEREMONY_MILLISECONDS,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(credential_id),
                                              transports=_transports(entry.get("transports")))
                for credential_id, entry in self.store.all(player.id).items()])
        self.store.save_registration_challenge(player.id, bytes_to_base64url(options.challenge),
                                               CHALLENGE_SECONDS)
        return options_to_json_dict(options)

    def register(self, player: Player, credential: dict, name: str) -> Passkey:
        challenge = self.store.take_registration_challenge(player.id)
        if challenge is None:
            raise refused("no passkey registration under way (or it expired, or was "
                          "answered): ask for new options")
        try:
            verified = webauthn.verify_registration_response(
                credential=credential, expected_challenge=base64url_to_bytes(challenge),
                expected_rp_id=self.rp_id, expected_origin=self.origin)
        except REFUSED as error:
            raise refused("the passkey was not registered", error) from None
        credential_id = bytes_to_base64url(verified.credential_id)
        entry = {"name": name, "created": self.clock.now(), "last_used": None,
                 "public_key": bytes_to_base64url(verified.credential_public_key),
                 "sign_count": verified.sign_count, "backed_up": verified.credential_backed_up,
                 "transports": list(credential.get("response", {}).get("transports") or [])}
        claimed = self.store.claim(credential_id, player.id)
        if claimed == TAKEN:
            raise Conflict("this passkey is registered to another player")
        added = self.store.add(player.id, credential_id, entry, MOST_PASSKEYS)
        if added != 1 and claimed == NEW:
            self.store.release(credential_id, player.id)
        if added == -1:
            raise Conflict(f"you have {MOST_PASSKEYS} passkeys, the most one player may hold: "
                           "remove one first")
        if added == 0:
            raise NotFound("no such player")
        return _passkey(credential_id, entry)

    # ---------------------------------------------------------------- sign-in
    def signin_options(self) -> dict:
        """PublicKeyCredentialRequestOptions (JSON) for navigator.credentials.get: no
        allowed credentials, so the device offers whichever passkey of this site it holds."""
        options = webauthn.generate_authentication_options(
            rp_id=self.rp_id, timeout=CEREMONY_MILLISECONDS,
            user_verification=UserVerificationRequirement.PREFERRED)
        self.store.save_signin_challenge(bytes_to_base64url(options.challenge), CHALLENGE_SECONDS)
        return options_to_json_dict(options)

    def sign_in(self, credential: dict, label: str) -> NewPlayer:
        try:
            parsed = parse_authentication_credential_json(credential)
            challenge = parse_client_data_json(parsed.response.client_data_json).challenge
        except REFUSED as error:
            raise refused("this is not a passkey's answer", error) from None
        if not self.store.take_signin_challenge(bytes_to_base64url(challenge)):
            raise refused("this passkey sign-in is unknown, used or expired: start again")
        player_id = (parsed.response.user_handle or b"").decode(errors="replace")
        credential_id = bytes_to_base64url(parsed.raw_id)
        entry = self.store.get(player_id, credential_id) if player_id else None
        found = self.players.store.get(player_id) if entry else None
        if found is None:
            raise refused("this passkey is not one of a player here (it may have been removed)")
        try:
            verified = webauthn.verify_authentication_response(
                credential=parsed, expected_challenge=challenge, expected_rp_id=self.rp_id,
                expected_origin=self.origin,
                credential_public_key=base64url_to_bytes(entry["public_key"]),
                credential_current_sign_count=entry["sign_count"])
        except REFUSED as error:
            raise refused("the passkey's answer does not verify", error) from None
        self.store.replace(player_id, credential_id, {
            **entry, "sign_count": verified.new_sign_count, "last_used": self.clock.now(),
            "backed_up": verified.credential_backed_up})
        self.store.claim(credential_id, player_id)  # kept while it is used
        return self.players.new_device(player_id, found, label)

    # ---------------------------------------------------------------- the player's passkeys
    def list(self, player: Player) -> list[Passkey]:
        return sorted((_passkey(credential_id, entry)
                       for credential_id, entry in self.store.all(player.id).items()),
                      key=lambda passkey: passkey.created)

    def rename(self, player: Player, passkey_id: str, name: str) -> Passkey:
        entry = self.store.get(player.id, passkey_id)
        if entry is None or not self.store.replace(player.id, passkey_id, {**entry, "name": name}):
            raise NotFound(f"you have no passkey {passkey_id!r}")
        return _passkey(passkey_id, {**entry, "name": name})

    def remove(self, player: Player, passkey_id: str) -> None:
        """The passkey signs nobody in from now on; devices it signed in keep their tokens."""
        if not self.store.remove(player.id, passkey_id):
            raise NotFound(f"you have no passkey {passkey_id!r}")
