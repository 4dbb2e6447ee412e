"""The passkey operations' names, which `api.http.contract.OPERATION_IDS` takes in."""

OPERATION_IDS = {
    ("/api/v1/players/me/passkey-registration/options", "post"): "passkeyRegistrationOptions",
    ("/api/v1/players/me/passkeys", "post"): "registerPasskey",
    ("/api/v1/players/me/passkeys", "get"): "listPasskeys",
    ("/api/v1/players/me/passkeys/{passkey_id}", "patch"): "renamePasskey",
    ("/api/v1/players/me/passkeys/{passkey_id}", "delete"): "removePasskey",
    ("/api/v1/players/passkey-signin/options", "post"): "passkeySignInOptions",
    ("/api/v1/players/passkey-signin", "post"): "signInWithPasskey",
}
