//! Movement, travel and vehicles (placeholder).
