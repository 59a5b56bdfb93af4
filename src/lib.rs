//! referee: a Discord bot for THIZ and The Fantasy Trip.
//!
//! Layers, called in one direction only: [`bot`] and [`console`] → [`app`] → [`store`] + [`rules`].
//! [`rules`] is pure: no async, no I/O, no Discord, no SQL; randomness comes in through
//! [`rules::dice::DieSource`].

pub mod app;
pub mod bot;
pub mod cli;
pub mod config;
pub mod console;
pub mod rules;
pub mod store;
