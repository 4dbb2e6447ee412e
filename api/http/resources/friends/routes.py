from flask.views import MethodView

from api.http.auth import current_player, tables
from api.http.blueprint import Blueprint
from api.http.resources.friends.schemas import BlockedPlayerSchema, FriendLinkSchema, FriendSchema

blp = Blueprint("friends", __name__, description="Friends, friend links and blocking")
BEARER = [{"bearer": []}]


@blp.route("/players/me/friend-link")
class FriendLink(MethodView):
    @blp.response(200, FriendLinkSchema)
    @blp.doc(security=BEARER)
    def get(self):
        """Your friend link, to share: whoever adds its code becomes your friend"""
        return tables().friends.link(current_player())

    @blp.response(200, FriendLinkSchema)
    @blp.doc(security=BEARER)
    def post(self):
        """A new friend link: the one before stops working (your friends stay)"""
        return tables().friends.link(current_player(), renew=True)


@blp.route("/players/friend-links/<string:code>")
class AddFriend(MethodView):
    @blp.response(201, FriendSchema)
    @blp.doc(security=BEARER)
    def post(self, code):
        """Add the player whose friend link this is: each becomes the other's friend

        Counted with the guesses of invite codes. At most 500 friends each (429 beyond)."""
        return tables().friends.add(current_player(), code)


@blp.route("/players/me/friends")
class Friends(MethodView):
    @blp.response(200, FriendSchema(many=True))
    @blp.doc(security=BEARER)
    def get(self):
        """Your friends, the most recently active first"""
        return tables().friends.list_friends(current_player())


@blp.route("/players/me/friends/<player_id:player_id>")
class Friend(MethodView):
    @blp.response(204)
    @blp.doc(security=BEARER)
    def delete(self, player_id):
        """No longer friends, on both sides"""
        tables().friends.remove(current_player(), player_id)


@blp.route("/players/me/blocks")
class Blocks(MethodView):
    @blp.response(200, BlockedPlayerSchema(many=True))
    @blp.doc(security=BEARER)
    def get(self):
        """The players you block"""
        return tables().friends.blocked(current_player())


@blp.route("/players/me/blocks/<player_id:player_id>")
class Block(MethodView):
    @blp.response(204)
    @blp.doc(security=BEARER)
    def put(self, player_id):
        """Block a player: no longer friends; they cannot seat you, talk to you at a table, see
        your profile beyond your name, nor join your waiting games

        At most 500 blocks (429 beyond)."""
        tables().friends.block(current_player(), player_id)

    @blp.response(204)
    @blp.doc(security=BEARER)
    def delete(self, player_id):
        """Unblock a player"""
        tables().friends.unblock(current_player(), player_id)
