"""The player directory, and a bot account's description in it."""
from flask.views import MethodView

from api.http.auth import authenticated, current_player, optional_auth, tables
from api.http.resources import tags
from api.http.resources.players.directory.schemas import (BotDescriptionSchema, DescribedSchema,
                                                          DirectoryEntrySchema,
                                                          SearchQuerySchema)

blp = tags.profiles


@blp.route("/players/search")
class Search(MethodView):
    @blp.doc(operationId="searchPlayers")
    @optional_auth
    @blp.arguments(SearchQuerySchema(), location="query")
    @blp.response(200, DirectoryEntrySchema(many=True))
    def get(self, query):
        """Players and bot accounts whose name starts so, at most 20

        Never you, a player you block or who blocks you, nor an account that is gone."""
        return tables().directory.search(current_player(required=False), query["name"])


@blp.route("/players/me/description")
class Description(MethodView):
    @blp.doc(operationId="describeBot")
    @authenticated
    @blp.arguments(BotDescriptionSchema())
    @blp.response(200, DescribedSchema)
    def put(self, body):
        """A bot account's description, shown beside it in searchPlayers (null: none)"""
        return tables().directory.describe(current_player(), body["description"])
