"""Background jobs run by RQ workers: `python -m worker.run --layout NAME` runs a worker that
`worker.layout` declares (`quick`, `deep`, `notices`), `python -m worker.run QUEUE...` one of any
queues."""
