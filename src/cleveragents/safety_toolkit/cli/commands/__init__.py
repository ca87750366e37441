"""One module per `safety-profile` command, each with `add_options(parser)` (its own options)
and `run(args) -> int` (its exit status); the parser imports only the running command's."""
