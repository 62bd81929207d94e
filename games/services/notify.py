"""Notifications after commit. Filled in by the notification layer."""


def game_changed(game_id, version: int) -> None:
    return None
