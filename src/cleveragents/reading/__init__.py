"""The reading core: bytes -> YAML -> problems -> messages, shared by the models and the CLI."""

from .yaml_reader_pattern import seed as _seed_yaml_reader_pattern

_seed_yaml_reader_pattern()  # before any module here imports `yaml`
