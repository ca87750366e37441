"""Git read by object id: what a revision or the index holds, attributes, HEAD's version of a file,
how names fold, the revisions a GitHub event names."""
