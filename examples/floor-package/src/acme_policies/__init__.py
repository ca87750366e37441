"""ACME's safety profile floor, read by `safety-profile` as
`pkg:acme_policies/floor.safety_profile.yaml`; the package holds data only."""
