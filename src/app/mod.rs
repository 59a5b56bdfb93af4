//! Use cases: one function per command, taking the caller and returning a reply model.
//!
//! Owns permissions, roll modes and what a player may see. Calls `store` and `rules`; never
//! touches Discord types. (Filled by the store/app/console issue.)

pub mod perm;
pub mod reply;
