"""gunicorn config for bench/api_load.py: also serves the test-only ruleset
"toy-auction" (registered in the master before the workers fork), so the load
test can run even while no production ruleset is complete."""

from games.rules import registry

registry.register("toy-auction", "tests.support.toy:RULES")
