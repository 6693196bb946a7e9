"""The Cython backend: compiled twins of the modules in ``kafkawire._pure``."""
