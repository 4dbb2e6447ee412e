"""Every Redis key and channel name of Pöytä.

Cluster-ready: a game's keys share the hash tag `{<game id>}`, a player's keys `{<player id>}`,
a tournament's `{<tournament id>}` and a matchmaking pool's `{<pool>}`, so every multi-key
command and script touches one hash slot (claiming seeks for a table is one script). Keys
without a tag (the lobby, the directory, the due-sets, the list of tournaments, invites, sign-in
codes, passkey sign-in challenges, the owners of passkeys' credential ids) are each one key of
their own.
"""
from __future__ import annotations

# --- a game: its hash, the log while it is played, its table talk -------------------------------
def game(game_id: str) -> str:
    return f"game:{{{game_id}}}"


def actions(game_id: str) -> str:
    return f"game:{{{game_id}}}:actions"


def events(game_id: str) -> str:
    return f"game:{{{game_id}}}:events"


def game_keys(game_id: str) -> list[str]:
    """The keys a commit touches: the hash, then the actions and events lists."""
    return [game(game_id), actions(game_id), events(game_id)]


def chat(game_id: str) -> str:
    return f"game:{{{game_id}}}:chat"


def chat_count(game_id: str) -> str:
    return f"game:{{{game_id}}}:chat-count"


def chat_rate(game_id: str, player_id: str) -> str:
    return f"game:{{{game_id}}}:chat-rate:{player_id}"


def rematch_claim(game_id: str) -> str:
    return f"game:{{{game_id}}}:rematch"


def analysis(game_id: str) -> str:
    """A finished game's review: its status, its job and, once done, the review as one JSON
    document (`api.storage.analyses`)."""
    return f"game:{{{game_id}}}:analysis"


def notice(game_id: str, seat: int, turn_since: int) -> str:
    """The lease, then the mark, of one turn's "your turn" notice; beside each notice's mark,
    + ":sent" holds the targets (push subscriptions, the webhook) it already reached."""
    return f"notified:{{{game_id}}}:{seat}:{turn_since}"


def reminder(game_id: str, seat: int, turn_since: int, kind: str) -> str:
    """The lease, then the mark, of one reminder of a turn."""
    return f"reminded:{{{game_id}}}:{seat}:{turn_since}:{kind}"


def challenge_notice(game_id: str, seat: int, player_id: str) -> str:
    """The lease, then the mark, of the notice telling a player of the seat a challenge keeps
    for them."""
    return f"challenged:{{{game_id}}}:{seat}:{player_id}"


def start_notice(game_id: str, player_id: str) -> str:
    """The lease, then the mark, of the notice telling a seated player the game started."""
    return f"started:{{{game_id}}}:{player_id}"


# --- a player -------------------------------------------------------------------------------------
def player(player_id: str) -> str:
    return f"player:{{{player_id}}}"


def devices(player_id: str) -> str:
    return f"player:{{{player_id}}}:devices"


def passkeys(player_id: str) -> str:
    """The player's passkeys: one JSON field per credential id (base64url)."""
    return f"player:{{{player_id}}}:passkeys"


def passkey_registration(player_id: str) -> str:
    """The challenge of the player's passkey registration under way (one at a time)."""
    return f"player:{{{player_id}}}:passkey-challenge"


def inbox(player_id: str) -> str:
    """The player's games, scored by when the player sat down."""
    return f"player:{{{player_id}}}:games"


def push_subscriptions(player_id: str) -> str:
    return f"player:{{{player_id}}}:push"


def digest(player_id: str, day: str) -> str:
    """The lease, then the mark, of a player's daily digest of one day."""
    return f"player:{{{player_id}}}:digest:{day}"


def standings(player_id: str) -> str:
    """The player's rating and results per game type: one JSON field per type."""
    return f"player:{{{player_id}}}:standings"


def results(player_id: str) -> str:
    """The finished games whose result the player's standings hold, scored by when: a game
    found here is never counted twice."""
    return f"player:{{{player_id}}}:results"


def rating_history(player_id: str, game_type: str) -> str:
    """The player's last rating changes at one game type, newest first."""
    return f"player:{{{player_id}}}:rating-history:{game_type}"


def recent_games(player_id: str) -> str:
    """The player's last finished games, newest first, with who may see each."""
    return f"player:{{{player_id}}}:recent"


def analyses_asked(player_id: str) -> str:
    """The games whose reviews the player asked for and that are not done yet."""
    return f"player:{{{player_id}}}:analyses"


def friends(player_id: str) -> str:
    """The ids of the player's friends (a set; each friendship is in both players' sets)."""
    return f"player:{{{player_id}}}:friends"


def blocks(player_id: str) -> str:
    """The ids of the players this player blocked (a set)."""
    return f"player:{{{player_id}}}:blocks"


def webhook(player_id: str) -> str:
    """The player's webhook: its URL, secret and id, what it has told (the stream's cursor
    state) and the events still to deliver, and its last delivery."""
    return f"player:{{{player_id}}}:webhook"


def webhook_lease(player_id: str) -> str:
    """Held by the one delivery run of the player's webhook at a time."""
    return f"player:{{{player_id}}}:webhook:lease"


def webhook_again(player_id: str) -> str:
    """Set by a delivery run that found the lease held: the holder looks once more."""
    return f"player:{{{player_id}}}:webhook:again"


def player_seeks(player_id: str) -> str:
    """The player's seeks (`<pool>.<token>`), scored by when each was made."""
    return f"player:{{{player_id}}}:seeks"


def player_keys(player_id: str) -> list[str]:
    """Every key a player's retention covers."""
    return [player(player_id), devices(player_id), passkeys(player_id), inbox(player_id),
            push_subscriptions(player_id), standings(player_id), results(player_id),
            recent_games(player_id), friends(player_id), blocks(player_id), webhook(player_id),
            player_seeks(player_id)]


# --- a matchmaking pool (rated or casual): its seeks, and the tables being seated from it -----
def seeks_open(pool: str) -> str:
    """The pool's open seeks, scored by when each was made."""
    return f"seeks:{{{pool}}}:open"


def seeks_lapsing(pool: str) -> str:
    """The same open seeks, scored by when each lapses."""
    return f"seeks:{{{pool}}}:lapsing"


def seek_records(pool: str) -> str:
    """Each seek as its player made it (JSON), open or ended."""
    return f"seeks:{{{pool}}}:records"


def seek_states(pool: str) -> str:
    """Each seek's state: `open`, `claimed:<table>`, `seated:<game>`, `cancelled`, `lapsed`."""
    return f"seeks:{{{pool}}}:states"


def seeks_ended(pool: str) -> str:
    """Seeks that ended, scored by when: their records go a while later."""
    return f"seeks:{{{pool}}}:ended"


def seek_tables(pool: str) -> str:
    """Tables whose seeks are claimed and whose game may not exist yet (JSON plan each)."""
    return f"seeks:{{{pool}}}:tables"


def seek_partners(pool: str) -> str:
    """Each player's tablemates at their last tables from the pool (JSON)."""
    return f"seeks:{{{pool}}}:partners"


def pairing_lease(pool: str) -> str:
    """Held by the one pairing run of the pool at a time."""
    return f"seeks:{{{pool}}}:lease"


def pairing_swept(pool: str) -> str:
    """Set while the sweeper's last pairing run of the pool is recent enough."""
    return f"seeks:{{{pool}}}:swept"


def player_tournaments(player_id: str) -> str:
    """The tournaments the player entered, scored by when."""
    return f"player:{{{player_id}}}:tournaments"


# --- a tournament: its document, and the leases of its tables' games being made ------------------
def tournament(tournament_id: str) -> str:
    """The tournament's JSON document and its version."""
    return f"tournament:{{{tournament_id}}}"


def tournament_table_lease(tournament_id: str, number: int, table: int) -> str:
    """Held while one process makes the game of a round's table."""
    return f"tournament:{{{tournament_id}}}:making:{number}:{table}"


# --- keys of their own --------------------------------------------------------------------------
LOBBY = "lobby"                 # public waiting games, scored by creation time
DUE = "due"                     # games a worker must look at, scored by when
ARCHIVE_OUTBOX = "archive:outbox"  # finished games owed to PostgreSQL, scored by when to look
DIGESTS = "digests"             # players with a daily digest, scored by when it is next due
SWEEP_LOCK = "sweep:lock"
TOURNAMENTS = "tournaments"     # every tournament, scored by creation time
TOURNAMENTS_DUE = "tournaments:due"  # tournaments a worker must look at, scored by when
DIRECTORY = "directory"         # every player by folded name, for a search by prefix
VAPID_KEY = "vapid:private_key"


def invite(code: str) -> str:
    return f"invite:{code}"


def friend_code(code: str) -> str:
    """The player whose friend link this code is."""
    return f"friend:{code}"


def lobby_entries_from(address_key: str) -> str:
    """The public games made from one address (a digest of it), scored by when."""
    return f"lobby:from:{address_key}"


def hard_bot_games_from(address_key: str) -> str:
    """The games with hard bots made from one address (a digest of it), scored by when."""
    return f"hardgames:from:{address_key}"


def signin_code(code_hash: str) -> str:
    return f"signin:{code_hash}"


def passkey_credential(credential_id: str) -> str:
    """The player a passkey's credential id (base64url) is registered to: one player's alone."""
    return f"passkey-credential:{credential_id}"


def passkey_signin(challenge: str) -> str:
    """A passkey sign-in's challenge (base64url), live until it is answered or expires: a
    sign-in names no player until its passkey answers."""
    return f"passkey-signin:{challenge}"


def push_owner(subscription_id: str) -> str:
    """The player a browser's push endpoint belongs to."""
    return f"push:owner:{subscription_id}"


# --- beside the queue (on RQ's standalone Redis) -----------------------------------------------
def worker_alive(worker_name: str) -> str:
    return f"worker:alive:{worker_name}"


# The players with a webhook, and the marks of their deliveries that may be owed:
# `<player>:<token>`, scored by when the sweeper queues the delivery unless it was settled first.
WEBHOOKS = "webhooks:players"
WEBHOOKS_DUE = "webhooks:due"


def webhook_queued(player_id: str) -> str:
    """Set while a delivery job of the player's webhook waits in the queue: a burst of changes
    queues one."""
    return f"webhook:queued:{player_id}"


def pairing_queued(pool: str) -> str:
    """Set while a pairing job of the pool waits in the queue: a burst of seeks queues one."""
    return f"pairing:queued:{pool}"


def long_polls(who: str) -> str:
    """The requests a player (or an address) holds waiting."""
    return f"longpolls:{who}"


def streams(who: str) -> str:
    """The streams a player (or an address) holds open, each an entry that lapses unless its
    stream renews it."""
    return f"streams:{who}"


def bot_time(payer: str, window: int) -> str:
    """The bots' thinking time spent for a player in one minute (`window`: minutes since 1970)."""
    return f"bottime:{payer}:{window}"


def bot_thrift(payer: str) -> str:
    """Set while a player's bots think at their least share: kept until their time falls well
    below the share, so that they do not swing back to full budgets every minute."""
    return f"bottime:{payer}:thrifty"


def bot_lane(payer: str, queue: str) -> str:
    """The player's game whose bots hold a place on the quick or the deep queue (one each)."""
    return f"botlane:{payer}:{queue}"


RATE_LIMIT_PREFIX = "ratelimit"


def rate_window(budget: str, who: str, seconds: int) -> str:
    """A caller's count in a budget's fixed window of `seconds` (beside the queue)."""
    return f"{RATE_LIMIT_PREFIX}:{budget}:{seconds}:{who}"


# --- channels: a commit publishes on the game's and on each seated player's inbox channel, a
# message at the table on its chat channel ----------------------------------------------------
GAME_CHANNEL = "changed:game:"
INBOX_CHANNEL = "changed:inbox:"
CHAT_CHANNEL = "changed:chat:"
CHANNEL_PATTERN = "changed:*"


def game_channel(game_id: str) -> str:
    return GAME_CHANNEL + game_id


def inbox_channel(player_id: str) -> str:
    return INBOX_CHANNEL + player_id


def chat_channel(game_id: str) -> str:
    return CHAT_CHANNEL + game_id


# --- retried requests: the answers kept under their Idempotency-Key -----------------------------
def idempotency(scope: str) -> str:
    """A caller's (a player's, or an address's) kept answers, by Idempotency-Key."""
    return f"idempotency:{{{scope}}}"


def idempotency_times(scope: str) -> str:
    """When each of those keys was first used: the oldest go first."""
    return f"idempotency:{{{scope}}}:times"


# --- what a player owns, kept in PostgreSQL ------------------------------------------------------
PLAYER_OUTBOX = "players:outbox"  # players whose keys changed since they were saved, by when


def owned_keys(player_id: str, game_types: list[str]) -> list[str]:
    """The player's keys PostgreSQL keeps (`api.storage.player_record`), in this order."""
    return [player(player_id), devices(player_id), passkeys(player_id), friends(player_id),
            blocks(player_id), standings(player_id), results(player_id),
            recent_games(player_id), *(rating_history(player_id, kind) for kind in game_types)]


def leaderboard_cache(game_type: str) -> str:
    """Leaderboards read from PostgreSQL, one field per "played within" filter (JSON)."""
    return f"leaderboard:{{{game_type}}}:cache"
