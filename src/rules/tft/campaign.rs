//! Campaign tables (in progress).
