"""Tooling around the Safety Profile: strict YAML loading, validation messages, the CLI."""
