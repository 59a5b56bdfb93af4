//! Hazards (placeholder).
