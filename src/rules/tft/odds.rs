//! Exact odds (placeholder).
