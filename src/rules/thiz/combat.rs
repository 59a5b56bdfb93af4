//! Combat (placeholder).
