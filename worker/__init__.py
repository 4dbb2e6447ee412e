"""Background jobs run by RQ workers: `rq worker bots --url $REDIS_URL`."""
