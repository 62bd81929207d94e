"""Application services: the only way the API (and tasks) change or read games."""
