//! Luck points (placeholder).
