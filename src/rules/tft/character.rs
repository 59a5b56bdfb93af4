//! The character side (placeholder).
