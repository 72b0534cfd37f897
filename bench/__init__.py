"""Benchmarks and proofs run by hand or by CI lanes (not imported by the site)."""
