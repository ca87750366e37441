"""Domain layer of CleverAgents."""
