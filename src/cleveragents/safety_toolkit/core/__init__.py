"""The commands' work as plain data: check, diff (also against git revisions), resolve, show,
starter, the document kinds, the rule documentation, and the renderings they share."""
