//! Encounter use-case tests.
