"""Sphinx configuration: the pages are MyST Markdown, the theme furo (`sphinx-build -W docs
build/docs`, run by .ci/run, turns every warning into an error)."""

from importlib.metadata import version as _version

project = "cleveragents-safety-profile"
author = "The cleveragents-safety-profile authors"
copyright = "2026, " + author
release = _version("cleveragents-safety-profile")
version = release

extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
# `[text](#a-heading)` and `[text](page.md#a-heading)` links, as GitHub renders them.
myst_heading_anchors = 3
exclude_patterns = ["_build"]

html_theme = "furo"
html_title = project
