"""Run a bot on Pöytä: you write `decide(view) -> action`, the runner does the rest."""
from poyta_bot.runner import Runner, accept_all, decline_all, register

__all__ = ["Runner", "accept_all", "decline_all", "register"]
