//! The two kinds of error a use case returns: the user's (shown verbatim, ephemeral) and ours
//! (logged, answered "Something went wrong"; the door in [`super`] makes the reply).
//!
//! A leaf every room of `app` imports: it imports no use case.

use super::perm;
use crate::store::StoreError;

/// A failed use case: either the user's doing (shown verbatim, ephemeral) or ours (logged,
/// answered "Something went wrong").
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// Something the user can fix: unknown character, bad number, not allowed…
    #[error("{0}")]
    User(String),
    /// A fault of the bot or its database.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
    /// The store failed. Kept as it is (not wrapped in `anyhow`, which would capture a
    /// backtrace): a busy or faulty database file gets its own answer (`App::store_reply`).
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<perm::NotGm> for AppError {
    fn from(e: perm::NotGm) -> Self {
        AppError::User(e.to_string())
    }
}

/// A user error from anything printable.
pub fn user(message: impl std::fmt::Display) -> AppError {
    AppError::User(message.to_string())
}

pub type AppResult<T> = Result<T, AppError>;
