//! Exact odds of a check (placeholder).
