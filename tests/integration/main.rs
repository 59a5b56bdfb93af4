//! The one integration-test binary (serenity makes each extra binary slow to link).
//!
//! - `e2e`: the real `referee run` against the fake Discord — start, registration, commands.
//! - `fake`: a fake Discord (REST + gateway on 127.0.0.1) for end-to-end tests, and its own tests.
//! - `console`: the real binary — console over stdin, migrate, backup, --help.
//! - `db_outage`: the database failing under three console processes — a PostgreSQL server
//!   stopped and started, or refusing connections; SQLite's disk full and freed.
//! - `faults`: the database under faults — a held write lock, read-only, full, removed — and recovery.
//! - `fuzz`: random input through `app` — no panic, clean refusals that change nothing, no secret.
//! - `layout`: the linker script that packs the start-up code of optimised builds (`link/`).
//! - `modules`: the module graph of `src/` — no cycle, and `app`'s families meet only at seams.
//! - `reach`: every public rules function is reached from `app`, or says why not.
//! - `secrecy`: the secrecy sweep — sentinels in every hidden place, every command as a player.
//! - `store`: the SQLite store on an on-disk database — migrations, WAL, backup, atomic luck.

mod console;
mod db_outage;
mod e2e;
mod fake;
mod faults;
mod fuzz;
mod layout;
mod modules;
mod pg_races;
mod reach;
mod secrecy;
mod store;
