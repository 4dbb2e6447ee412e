"""Every Redis key and channel name of Pöytä.

Cluster-ready: a game's keys share the hash tag `{<game id>}` and a player's keys `{<player
id>}`, so every multi-key command and script touches one hash slot. Keys without a tag (the
lobby, the due-set, invites, sign-in codes) are each one key of their own.
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


def notice(game_id: str, seat: int, turn_since: int) -> str:
    """The lease, then the mark, of one turn's "your turn" notice; beside each notice's mark,
    + ":sent" holds the targets (push subscriptions, the webhook) it already reached."""
    return f"notified:{{{game_id}}}:{seat}:{turn_since}"


def reminder(game_id: str, seat: int, turn_since: int, kind: str) -> str:
    """The lease, then the mark, of one reminder of a turn."""
    return f"reminded:{{{game_id}}}:{seat}:{turn_since}:{kind}"


# --- a player -------------------------------------------------------------------------------------
def player(player_id: str) -> str:
    return f"player:{{{player_id}}}"


def devices(player_id: str) -> str:
    return f"player:{{{player_id}}}:devices"


def inbox(player_id: str) -> str:
    """The player's games, scored by when the player sat down."""
    return f"player:{{{player_id}}}:games"


def push_subscriptions(player_id: str) -> str:
    return f"player:{{{player_id}}}:push"


def digest(player_id: str, day: str) -> str:
    """The lease, then the mark, of a player's daily digest of one day."""
    return f"player:{{{player_id}}}:digest:{day}"


def player_keys(player_id: str) -> list[str]:
    """Every key a player's retention covers."""
    return [player(player_id), devices(player_id), inbox(player_id),
            push_subscriptions(player_id)]


# --- keys of their own --------------------------------------------------------------------------
LOBBY = "lobby"                 # public waiting games, scored by creation time
DUE = "due"                     # games a worker must look at, scored by when
DIGESTS = "digests"             # players with a daily digest, scored by when it is next due
SWEEP_LOCK = "sweep:lock"
VAPID_KEY = "vapid:private_key"


def invite(code: str) -> str:
    return f"invite:{code}"


def signin_code(code_hash: str) -> str:
    return f"signin:{code_hash}"


def push_owner(subscription_id: str) -> str:
    """The player a browser's push endpoint belongs to."""
    return f"push:owner:{subscription_id}"


# --- beside the queue (on RQ's standalone Redis) -----------------------------------------------
def worker_alive(worker_name: str) -> str:
    return f"worker:alive:{worker_name}"


def long_polls(who: str) -> str:
    """The requests a player (or an address) holds waiting."""
    return f"longpolls:{who}"


RATE_LIMIT_PREFIX = "ratelimit"   # the `limits` library's counters


# --- channels: a commit publishes on the game's and on each seated player's inbox channel -------
GAME_CHANNEL = "changed:game:"
INBOX_CHANNEL = "changed:inbox:"
CHANNEL_PATTERN = "changed:*"


def game_channel(game_id: str) -> str:
    return GAME_CHANNEL + game_id


def inbox_channel(player_id: str) -> str:
    return INBOX_CHANNEL + player_id
