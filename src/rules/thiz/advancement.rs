//! Advancement, professions and crafting (placeholder).
