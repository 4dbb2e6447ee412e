from marshmallow import Schema, fields


class FriendLinkSchema(Schema):
    code = fields.String(metadata={"description": "Your friend code: whoever adds it (addFriend) "
                                                  "becomes your friend"})
    link = fields.String(metadata={"description": "The PWA's path that adds it, to share"})


class FriendLinkPreviewSchema(Schema):
    name = fields.String(metadata={"description": "The name of the player whose link it is"})


class FriendSchema(Schema):
    id = fields.String(metadata={"description": "Opens getPlayerProfile"})
    name = fields.String()
    bot = fields.Boolean()
    last_active = fields.String(allow_none=True, metadata={
        "description": "When the player last used the API (within a few seconds); null if "
                       "never since this was recorded"})


class BlockedPlayerSchema(Schema):
    id = fields.String()
    name = fields.String()
