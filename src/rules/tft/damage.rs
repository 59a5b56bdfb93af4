//! Damage (placeholder).
