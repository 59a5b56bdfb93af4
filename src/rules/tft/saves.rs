//! Saving rolls and common checks (placeholder).
