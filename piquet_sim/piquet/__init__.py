"""Piquet: rules, kernels, plain-Python reference, library API and commands."""
