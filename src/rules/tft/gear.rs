//! Weapons, armor and shields (placeholder).
