"""Fixtures for the Imjin engine tests (helpers live in imjin_helpers.py)."""

import pytest
from imjin_helpers import Game


@pytest.fixture
def game():
    return Game(2).skip_setup()
