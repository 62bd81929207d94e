"""gunicorn config for tests that start real servers: also serves the
test-only ruleset "toy-auction" (registered in the master before the workers fork)."""

from games import plugins
from games.rules import registry
from tests.support import toy

registry.register("toy-auction", "tests.support.toy:RULES")
plugins.register(toy.PLUGINS)
