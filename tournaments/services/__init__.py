"""Workflows that span several models: one keyword-only function per workflow, in a transaction."""
