"""Background jobs run by RQ workers: `python -m worker.run bots` (quick bot moves),
`python -m worker.run bots-deep bots` (hard bots first), `python -m worker.run notices`."""
