//! Wounds and recovery (placeholder).
