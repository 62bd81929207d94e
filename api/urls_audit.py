"""Routes of the audit layer (takebacks)."""

urlpatterns: list = []
