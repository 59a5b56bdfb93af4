//! Campaign tables (placeholder).
