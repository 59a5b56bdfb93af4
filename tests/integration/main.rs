//! The one integration-test binary (serenity makes each extra binary slow to link).
//!
//! - `store`: the SQLite store on an on-disk database — migrations, WAL, backup, atomic luck.

mod store;
