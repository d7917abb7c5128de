"""Mutation testing of the reference against the spec: mutmut run one way, its ledger and gate."""
