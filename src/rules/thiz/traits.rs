//! Weaknesses and quirks (placeholder).
