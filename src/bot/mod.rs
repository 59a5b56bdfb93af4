//! The Discord layer: poise commands, rendering of reply models to embeds, buttons, autocomplete.
//!
//! Owns everything serenity/poise; calls only `app`. (Filled by the Discord bot issue.)
