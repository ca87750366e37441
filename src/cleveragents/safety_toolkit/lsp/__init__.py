"""The language server (`safety-profile lsp`): the core's checks while an editor types, quick fixes,
completion and hover, documents on disk and in git, message framing."""
