"""Fit 6 nimmt! hard's opponent model to the published baseline's own card choices.

    nice -n 15 python -m bench.sixnimmt_opponent_model --rounds 300 --seconds 0.03 --jobs 2

Every seat is the baseline (`rules/sixnimmt/search.py`); one-round games from seed 1000, at
`--players` players. Each card choice with more than one card in hand is a sample: the
features hard can compute for every card an opponent may hold (`card_features`, from the
rows and the cards hidden from that opponent) and the card the baseline played. A
conditional logit (the chance of a card proportional to exp(features . weights)) is fitted
by maximum likelihood on the first rounds and judged on the last quarter against the rank
table it replaced (OPPONENT_RANKS): the mean log-likelihood of the played card and how often
the model's likeliest card is the one played. Prints the weights to paste into
OPPONENT_WEIGHTS.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from bench.sixnimmt_ablation import OPPONENT_RANKS
from rules import GAMES
from rules.search import Budget
from rules.sixnimmt.bots import Seen, caution
from rules.sixnimmt.search import baseline, card_features, hand_rank

GAME = GAMES["sixnimmt"]


def collect(players: int, seed: int, seconds: float | None) -> list[tuple[np.ndarray, int, list]]:
    """One round of baseline self-play: per card choice, every card's features, the index
    of the card played, and the rank-table order of the hand (safest first)."""
    options = GAME.normalise_options(players, {"threshold": 1})
    budget = Budget(seconds=seconds) if seconds else Budget()
    state = GAME.new_game(players, options, seed)
    rngs = [random.Random(f"model:{seed}:{seat}") for seat in range(players)]
    samples = []
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        action = baseline(view, legal, rngs[seat], budget)
        if legal[0]["type"] == "play" and len(legal) > 1:
            seen = Seen.of(view)
            cards = [choice["card"] for choice in legal]
            # As hard sees an opponent, whose own cards it cannot tell from the other hidden
            # ones: card_features counts the seat's own cards as hidden too.
            hidden = seen.unseen + seen.own
            features = np.hstack([card_features(seen, np.array(cards)),
                                  hand_rank(np.array(cards))[:, None]])
            order = sorted(range(len(cards)), key=lambda index: caution(
                cards[index], seen.rows, seen.row_bullheads, hidden, players - 1))
            samples.append((features, cards.index(action["card"]), order))
        GAME.apply_action(state, seat, action)
    return samples


def chances(features: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The model's chance of each card: a softmax of features . weights."""
    logits = features @ weights
    odds = np.exp(logits - logits.max())
    return odds / odds.sum()


def fit_weights(samples, steps: int = 30) -> np.ndarray:
    """Maximum likelihood by Newton's method: the conditional logit's log-likelihood is
    concave, and with a few weights its Hessian is cheap."""
    weights = np.zeros(samples[0][0].shape[1])
    for _ in range(steps):
        gradient = np.zeros_like(weights)
        hessian = np.zeros((len(weights), len(weights)))
        for features, chosen, _ in samples:
            chance = chances(features, weights)
            mean = chance @ features
            gradient += features[chosen] - mean
            centred = features - mean
            hessian -= (centred * chance[:, None]).T @ centred
        step = np.linalg.solve(hessian - 1e-6 * np.eye(len(weights)), gradient)
        weights -= step
        if np.abs(step).max() < 1e-6:
            break
    return weights


def judge(samples, chance_of) -> tuple[float, float]:
    """Mean log-likelihood of the played card and the share of likeliest cards played."""
    log_likelihood, hits = 0.0, 0
    for sample in samples:
        chance = chance_of(sample)
        log_likelihood += math.log(max(chance[sample[1]], 1e-9))
        hits += int(np.argmax(chance) == sample[1])
    return log_likelihood / len(samples), hits / len(samples)


def by_rank_table(sample) -> np.ndarray:
    _, _, order = sample
    shares = np.array(OPPONENT_RANKS[len(order)])
    chance = np.empty(len(order))
    chance[order] = shares / shares.sum()
    return chance


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=0.03,
                        help="the baseline's CPU a decision (0: its 100 rollouts a card)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    seeds = range(1000, 1000 + args.rounds)
    with ProcessPoolExecutor(args.jobs) as pool:
        rounds = list(pool.map(collect, [args.players] * len(seeds), seeds,
                               [args.seconds or None] * len(seeds)))
    split = len(rounds) * 3 // 4
    fit = [sample for round_ in rounds[:split] for sample in round_]
    held_out = [sample for round_ in rounds[split:] for sample in round_]
    weights = fit_weights(fit)

    uniform = sum(-math.log(len(sample[2])) for sample in held_out) / len(held_out)
    print(f"baseline at {args.seconds or 'its 100 rollouts a card'} s, {args.players} players, "
          f"{args.rounds} rounds: {len(fit)} card choices fitted, {len(held_out)} held out")
    print(f"  uniform:    log-likelihood {uniform:.3f}, likeliest card played "
          f"{sum(1 / len(s[2]) for s in held_out) / len(held_out):.1%} (expected)")
    for name, chance_of in (("rank table", by_rank_table),
                            ("model", lambda sample: chances(sample[0], weights))):
        log_likelihood, hits = judge(held_out, chance_of)
        print(f"  {name + ':':11} log-likelihood {log_likelihood:.3f}, likeliest card played "
              f"{hits:.1%}")
    print("OPPONENT_WEIGHTS = (" + ", ".join(f"{weight:.3f}" for weight in weights) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
