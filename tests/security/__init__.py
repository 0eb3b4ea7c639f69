"""Hostile files: every path that reads a file from elsewhere, attacked (issue 39)."""
