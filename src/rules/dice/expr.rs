//! Dice expressions (placeholder until the grammar lands).
