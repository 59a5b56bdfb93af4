//! Character creation rules (placeholder).
