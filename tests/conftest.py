"""Shared fixtures: the store on SQLite and on the local PostgreSQL (tests/store_fixtures.py)."""

pytest_plugins = ["store_fixtures"]
