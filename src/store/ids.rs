//! Newtype ids, stored as 64-bit integers (SQLite's INTEGER, PostgreSQL's BIGINT).

use super::sql::{Column, Param, Value};

macro_rules! snowflake {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        pub struct $name(pub u64);

        impl Param for $name {
            // Discord snowflakes stay below 2^63, so they fit signed 64-bit integers unchanged.
            fn value(&self) -> Value<'_> {
                Value::Int(self.0 as i64)
            }
        }

        impl Column for $name {
            fn column(v: Value<'_>) -> Result<Self, String> {
                i64::column(v).map(|v| Self(v as u64))
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

macro_rules! row_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        pub struct $name(pub i64);

        impl Param for $name {
            fn value(&self) -> Value<'_> {
                Value::Int(self.0)
            }
        }

        impl Column for $name {
            fn column(v: Value<'_>) -> Result<Self, String> {
                i64::column(v).map(Self)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

snowflake!(
    /// A Discord guild (server).
    GuildId
);
snowflake!(
    /// A Discord user.
    UserId
);
row_id!(
    /// A character, unique within its guild.
    CharacterId
);
row_id!(
    /// A roll of the roll log, unique within its guild.
    RollId
);
