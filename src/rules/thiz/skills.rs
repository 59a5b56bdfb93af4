//! Skills, the skill table and general ratings (placeholder).
