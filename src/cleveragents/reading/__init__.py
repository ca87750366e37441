"""The reading core: bytes -> YAML -> problems -> messages, shared by the models and the CLI."""
