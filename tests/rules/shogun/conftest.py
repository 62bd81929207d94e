"""Shogun engine tests need no database; helpers live in shogun_helpers.py."""
