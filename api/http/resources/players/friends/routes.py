from flask.views import MethodView

from api.http.auth import authenticated, current_player, optional_auth, tables
from api.http.resources import tags
from api.http.resources.players.friends.schemas import (BlockedPlayerSchema,
                                                      FriendLinkPreviewSchema, FriendLinkSchema,
                                                      FriendSchema)

blp = tags.friends


@blp.route("/players/me/friend-link")
class FriendLink(MethodView):
    @blp.doc(operationId="getFriendLink")
    @authenticated
    @blp.response(200, FriendLinkSchema)
    def get(self):
        """Your friend link, to share: whoever adds its code becomes your friend"""
        return tables().friends.link(current_player())

    @blp.doc(operationId="renewFriendLink")
    @authenticated
    @blp.response(200, FriendLinkSchema)
    def post(self):
        """A new friend link: the one before stops working (your friends stay)"""
        return tables().friends.link(current_player(), renew=True)


@blp.route("/players/friend-links/<string:code>")
class AddFriend(MethodView):
    @blp.doc(operationId="previewFriendLink")
    @optional_auth
    @blp.response(200, FriendLinkPreviewSchema)
    def get(self, code):
        """Whose friend link this is, before adding it: the app's welcome names who invited

        Counted with the guesses of invite codes."""
        return tables().friends.preview(code, current_player(required=False))

    @blp.doc(operationId="addFriend")
    @authenticated
    @blp.response(201, FriendSchema)
    def post(self, code):
        """Add the player whose friend link this is: each becomes the other's friend

        Counted with the guesses of invite codes. At most 500 friends each (429 beyond)."""
        return tables().friends.add(current_player(), code)


@blp.route("/players/me/friends")
class Friends(MethodView):
    @blp.doc(operationId="listFriends")
    @authenticated
    @blp.response(200, FriendSchema(many=True))
    def get(self):
        """Your friends, the most recently active first"""
        return tables().friends.list_friends(current_player())


@blp.route("/players/me/friends/<player_id:player_id>")
class Friend(MethodView):
    @blp.doc(operationId="removeFriend")
    @authenticated
    @blp.response(204)
    def delete(self, player_id):
        """No longer friends, on both sides"""
        tables().friends.remove(current_player(), player_id)


@blp.route("/players/me/blocks")
class Blocks(MethodView):
    @blp.doc(operationId="listBlocks")
    @authenticated
    @blp.response(200, BlockedPlayerSchema(many=True))
    def get(self):
        """The players you block"""
        return tables().friends.blocked(current_player())


@blp.route("/players/me/blocks/<player_id:player_id>")
class Block(MethodView):
    @blp.doc(operationId="blockPlayer")
    @authenticated
    @blp.response(204)
    def put(self, player_id):
        """Block a player: no longer friends; they cannot seat you, talk to you at a table, see
        your profile beyond your name, nor join your waiting games

        At most 500 blocks (429 beyond)."""
        tables().friends.block(current_player(), player_id)

    @blp.doc(operationId="unblockPlayer")
    @authenticated
    @blp.response(204)
    def delete(self, player_id):
        """Unblock a player"""
        tables().friends.unblock(current_player(), player_id)
