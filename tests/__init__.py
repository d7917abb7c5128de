"""The suite's own tests: the ledger, the cases, the loader, the reports and known-wrong implementations."""
