//! Storage: SQLite through rusqlite, the only place with SQL.
//!
//! Owns migrations, transactions and the per-guild partitioning. (Filled by the store/app/console issue.)
