//! Command-level tests of the TFT use cases.
