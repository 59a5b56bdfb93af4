//! Multiple actions (placeholder).
