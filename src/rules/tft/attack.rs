//! Attack resolution (placeholder).
