"""The pure-Python backend: the same modules and behaviour as ``kafkawire._fast``."""
