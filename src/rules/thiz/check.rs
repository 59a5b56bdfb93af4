//! Checks (placeholder).
