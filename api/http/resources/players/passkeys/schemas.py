"""WebAuthn's JSON as the browser's PublicKeyCredential.toJSON() gives it and as
PublicKeyCredentialCreationOptions / RequestOptions.parseJSON read it."""
from marshmallow import Schema, fields, validate

BASE64URL = validate.Regexp(r"^[A-Za-z0-9_-]*={0,2}$", error="must be base64url")


def base64url(description: str, most: int = 4096, **extra) -> fields.String:
    return fields.String(validate=[validate.Length(min=1, max=most), BASE64URL],
                         metadata={"description": description + " (base64url)"}, **extra)


def passkey_name(**extra) -> fields.String:
    return fields.String(validate=validate.Length(min=1, max=60), metadata={
        "description": "To tell your passkeys apart", "example": "My phone"}, **extra)


class _Credential(Schema):
    id = base64url("The credential id", 1400, required=True)
    rawId = base64url("The credential id", 1400, required=True)
    type = fields.String(required=True, validate=validate.OneOf(["public-key"]))
    authenticatorAttachment = fields.String(allow_none=True,
                                            validate=validate.OneOf(["platform", "cross-platform"]))
    clientExtensionResults = fields.Dict(load_default=dict)


class AttestationResponseSchema(Schema):
    clientDataJSON = base64url("The client data", required=True)
    attestationObject = base64url("The attestation object", 16384, required=True)
    transports = fields.List(fields.String(validate=validate.Length(max=20)),
                             validate=validate.Length(max=10))
    # What browsers add for those that cannot parse the attestation object; not read here.
    authenticatorData = base64url("The authenticator data", 16384)
    publicKey = base64url("The public key, DER", 16384)
    publicKeyAlgorithm = fields.Integer()


class AssertionResponseSchema(Schema):
    clientDataJSON = base64url("The client data", required=True)
    authenticatorData = base64url("The authenticator data", required=True)
    signature = base64url("The signature", 1024, required=True)
    userHandle = base64url("The user handle: the player's id, as the passkey keeps it", 128,
                           allow_none=True)


class RegistrationCredentialSchema(_Credential):
    response = fields.Nested(AttestationResponseSchema, required=True)


class AuthenticationCredentialSchema(_Credential):
    response = fields.Nested(AssertionResponseSchema, required=True)


class RegisterPasskeySchema(Schema):
    credential = fields.Nested(RegistrationCredentialSchema, required=True, metadata={
        "description": "navigator.credentials.create()'s answer, as its toJSON() gives it"})
    name = passkey_name(load_default="Passkey")


class PasskeySignInSchema(Schema):
    credential = fields.Nested(AuthenticationCredentialSchema, required=True, metadata={
        "description": "navigator.credentials.get()'s answer, as its toJSON() gives it"})
    device = fields.String(load_default="another device", validate=validate.Length(min=1, max=60),
                           metadata={"description": "A label to recognise the device by"})


class RenamePasskeySchema(Schema):
    name = passkey_name(required=True)


class PasskeySchema(Schema):
    id = fields.String(dump_only=True, metadata={"description": "The credential id (base64url)"})
    name = fields.String(dump_only=True)
    created = fields.String(dump_only=True)
    last_used = fields.String(dump_only=True, allow_none=True,
                              metadata={"description": "When it last signed a device in"})
    backed_up = fields.Boolean(dump_only=True, metadata={
        "description": "Synced to your other devices (e.g. a cloud keychain)"})


# ---------------------------------------------------------------- the options (answers only)
class _RelyingPartySchema(Schema):
    id = fields.String()
    name = fields.String()


class _UserSchema(Schema):
    id = fields.String(metadata={"description": "The player's id as the user handle "
                                                "(base64url)"})
    name = fields.String()
    displayName = fields.String()


class _CredentialParameterSchema(Schema):
    type = fields.String()
    alg = fields.Integer(metadata={"description": "A COSE algorithm"})


class _CredentialDescriptorSchema(Schema):
    id = fields.String()
    type = fields.String()
    transports = fields.List(fields.String())


class _AuthenticatorSelectionSchema(Schema):
    residentKey = fields.String()
    requireResidentKey = fields.Boolean()
    userVerification = fields.String()
    authenticatorAttachment = fields.String()


class CreationOptionsSchema(Schema):
    """PublicKeyCredentialCreationOptionsJSON"""
    rp = fields.Nested(_RelyingPartySchema)
    user = fields.Nested(_UserSchema)
    challenge = fields.String(metadata={"description": "Single use; base64url"})
    pubKeyCredParams = fields.List(fields.Nested(_CredentialParameterSchema))
    timeout = fields.Integer(metadata={"description": "milliseconds"})
    excludeCredentials = fields.List(fields.Nested(_CredentialDescriptorSchema),
                                     metadata={"description": "Your passkeys already here"})
    authenticatorSelection = fields.Nested(_AuthenticatorSelectionSchema)
    attestation = fields.String()
    hints = fields.List(fields.String())


class RequestOptionsSchema(Schema):
    """PublicKeyCredentialRequestOptionsJSON"""
    challenge = fields.String(metadata={"description": "Single use; base64url"})
    timeout = fields.Integer(metadata={"description": "milliseconds"})
    rpId = fields.String()
    allowCredentials = fields.List(fields.Nested(_CredentialDescriptorSchema))
    userVerification = fields.String()
