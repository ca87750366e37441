"""The `safety-profile` command line: the parser, each command's handler, usage and help text, shell
completion. Nothing imports it; `__main__` and the console script run `cli.main.main`."""
