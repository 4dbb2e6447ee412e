from dataclasses import asdict

from flask import url_for
from flask.views import MethodView

from api.http.auth import authenticated, current_player, tables
from api.http.resources import tags
from api.http.resources.players.passkeys.schemas import (
    CreationOptionsSchema, PasskeySchema, PasskeySignInSchema, RegisterPasskeySchema,
    RenamePasskeySchema, RequestOptionsSchema,
)
from api.http.resources.players.schemas import NewPlayerSchema

blp = tags.passkeys


@blp.route("/players/me/passkey-registration/options")
class RegistrationOptions(MethodView):
    @blp.doc(operationId="passkeyRegistrationOptions")
    @authenticated
    @blp.response(200, CreationOptionsSchema)
    def post(self):
        """Options for navigator.credentials.create: the first step of adding a passkey

        The challenge is answered once, within about two minutes; new options replace it."""
        return tables().passkeys.registration_options(current_player())


@blp.route("/players/me/passkeys")
class Passkeys(MethodView):
    @blp.doc(operationId="listPasskeys")
    @authenticated
    @blp.response(200, PasskeySchema(many=True))
    def get(self):
        """Your passkeys"""
        return [asdict(passkey) for passkey in tables().passkeys.list(current_player())]

    @blp.doc(operationId="registerPasskey")
    @authenticated
    @blp.arguments(RegisterPasskeySchema())
    @blp.response(201, PasskeySchema)
    def post(self, body):
        """Add the passkey the device made from the registration options"""
        passkey = tables().passkeys.register(current_player(), body["credential"], body["name"])
        return asdict(passkey), {"Location": url_for("passkeys.Passkey", passkey_id=passkey.id)}


@blp.route("/players/me/passkeys/<string:passkey_id>")
class Passkey(MethodView):
    @blp.doc(operationId="renamePasskey")
    @authenticated
    @blp.arguments(RenamePasskeySchema())
    @blp.response(200, PasskeySchema)
    def patch(self, body, passkey_id):
        """Rename one of your passkeys"""
        return asdict(tables().passkeys.rename(current_player(), passkey_id, body["name"]))

    @blp.doc(operationId="removePasskey")
    @authenticated
    @blp.response(204)
    def delete(self, passkey_id):
        """Remove a passkey: it signs nobody in from now on (the devices it signed in stay)"""
        tables().passkeys.remove(current_player(), passkey_id)


@blp.route("/players/passkey-signin/options")
class SignInOptions(MethodView):
    @blp.doc(operationId="passkeySignInOptions")
    @blp.response(200, RequestOptionsSchema)
    def post(self):
        """Options for navigator.credentials.get: the first step of signing in with a passkey

        No token needed: the device offers the passkeys of this site it holds."""
        return tables().passkeys.signin_options()


@blp.route("/players/passkey-signin")
class SignIn(MethodView):
    @blp.doc(operationId="signInWithPasskey")
    @blp.arguments(PasskeySignInSchema())
    @blp.response(201, NewPlayerSchema)
    def post(self, body):
        """Sign this device in with a passkey: a new token of the passkey's player"""
        return (tables().passkeys.sign_in(body["credential"], body["device"]),
                {"Location": url_for("players.Me")})
