"""Rising Sun (CMON) rules engine. See README.md."""
