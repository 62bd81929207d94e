"""Routes of the play-by-email layer (deadlines, pause, press, notifications)."""

urlpatterns: list = []
