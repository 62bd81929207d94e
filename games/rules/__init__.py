"""Rulesets: pure engines, one package each. `registry` maps ids to engines."""
