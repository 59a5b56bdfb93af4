//! Magic (placeholder).
