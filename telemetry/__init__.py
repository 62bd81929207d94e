"""Metrics and logging helpers: the bottom floor, imported by everyone and importing
no other first-party package (docs/architecture.md, "Layers")."""
