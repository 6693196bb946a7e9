"""Test tooling around Apache Kafka's own release jars (the reference implementation)."""
