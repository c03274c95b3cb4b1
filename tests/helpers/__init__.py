"""Helpers shared by the tests: plain functions, classes and constants (the fixtures live in the
conftests and in tests/fixtures/)."""
