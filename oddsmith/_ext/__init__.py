"""Compiled kernels built from ext/*.pyx (see setup.py). Hot loops only."""
