//! `referee console`: slash commands typed as text on standard input, replies printed.
//!
//! Owns parsing of the typed lines and printing of reply models; calls only `app`.
//! (Filled by the store/app/console issue.)
