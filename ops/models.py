"""The ops app has no tables of its own: heartbeats live in the `heartbeats` app
(one source for /health and /metrics)."""
