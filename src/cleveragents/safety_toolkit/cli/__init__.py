"""The `safety-profile` command line: the parser (`parser.py`), one module per command
(`commands/`), usage and help text, shell completion. Nothing imports it; `__main__` and the
console script run `cli.main.main`."""
