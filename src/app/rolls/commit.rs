//! Commitments for secret rolls: the nonce, the exact string hashed, and its SHA-256.
//!
//! ## How anyone can check a revealed roll
//! When a GM makes a secret roll, the channel sees `SHA-256(S)` as 64 lowercase hex digits, where
//! `S` is the UTF-8 string
//!
//! ```text
//! referee-commit-v1|<canonical result>|<nonce>
//! ```
//!
//! - `<canonical result>` is the result in the fixed form of
//!   [`Rolled::canonical`](super::shown::Rolled::canonical), e.g.
//!   `expr=4d6kh3+2;dice=+[~1,3,5,6]+2;total=16` (no roll id, label or time: only what was rolled);
//! - `<nonce>` is 16 random bytes as 32 lowercase hex digits, drawn when the roll is made and kept
//!   hidden until the reveal, so nobody can guess `S` from the commitment by trying every result.
//!
//! `/reveal` publishes `S` itself; `printf '%s' 'S' | sha256sum` must print the commitment. The
//! `v1` names this format: a different one would be `v2`, and `v1` strings stay checkable.

use super::sha256;
use crate::rules::dice::DieSource;

/// What every committed string starts with: the format and its version.
pub const PREFIX: &str = "referee-commit-v1";

/// Bytes of randomness in a nonce.
pub const NONCE_BYTES: usize = 16;

/// A fresh nonce: [`NONCE_BYTES`] bytes from `dice` (one d256 less one per byte), in hex.
///
/// Production dice are `rand`'s thread generator, a cryptographically secure generator; seeded
/// dice make a whole console session, nonces included, repeat exactly.
pub fn nonce(dice: &mut impl DieSource) -> String {
    let bytes: Vec<u8> = (0..NONCE_BYTES)
        .map(|_| u8::try_from(dice.roll(256).saturating_sub(1)).unwrap_or(u8::MAX))
        .collect();
    sha256::hex(&bytes)
}

/// The exact string a commitment hashes.
pub fn committed_string(canonical_result: &str, nonce: &str) -> String {
    format!("{PREFIX}|{canonical_result}|{nonce}")
}

/// The commitment to `committed` (a [`committed_string`]): its SHA-256 in lowercase hex.
pub fn commitment(committed: &str) -> String {
    sha256::hex_digest(committed.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    #[test]
    fn nonce_is_sixteen_bytes_of_hex_from_the_dice() {
        let mut faces = vec![1, 256, 17];
        faces.extend(std::iter::repeat_n(2, 13));
        let mut dice = ScriptedDice::new(faces);
        let n = nonce(&mut dice);
        assert_eq!(n, format!("00ff10{}", "01".repeat(13)));
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn the_committed_string_and_its_hash() {
        let s = committed_string(
            "expr=1d6;dice=+[4];total=4",
            "000102030405060708090a0b0c0d0e0f",
        );
        assert_eq!(
            s,
            "referee-commit-v1|expr=1d6;dice=+[4];total=4|000102030405060708090a0b0c0d0e0f"
        );
        let c = commitment(&s);
        assert_eq!(c.len(), 64);
        assert_eq!(c, sha256::hex_digest(s.as_bytes()));
        assert_ne!(
            c,
            commitment(&committed_string(
                "expr=1d6;dice=+[5];total=5",
                "000102030405060708090a0b0c0d0e0f"
            ))
        );
    }
}
