"""Deadlines (play-by-email). Filled in by the time-control layer."""


def sync(game_id) -> None:
    return None


def due_times(game) -> dict:
    return {}
