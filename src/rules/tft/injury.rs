//! After the blow (placeholder).
