//! The signature on every request to the HTTP Interactions Endpoint (`X-Signature-Ed25519`,
//! `X-Signature-Timestamp`), checked against the application's public key with ed25519-dalek.
//!
//! Owns the rules, and nothing else: pure (the clock is a parameter), no I/O, no logging. What
//! Discord signs is the timestamp's text followed by the raw body, byte for byte, so the body is
//! checked exactly as it arrived, before anything parses it.
//!
//! ## Staleness
//! A timestamp more than [`MAX_SKEW`] (5 minutes) before or after this machine's clock is
//! refused: a request captured on its way cannot be sent again later, and a clock wrong by
//! minutes shows up as refused interactions rather than passing unnoticed. (Within the window a
//! replayed request would run again, as a second delivery of a gateway event would; the luck
//! spends are idempotent by interaction id.) The headers are checked first, before the body is
//! read, so a request without a fresh, well-formed signature costs nothing more.

use std::time::Duration;

use ed25519_dalek::{Signature, VerifyingKey};

/// How far a request's timestamp may be from this machine's clock, either way.
pub const MAX_SKEW: Duration = Duration::from_mins(5);

/// Why a request's signature was refused (each is answered 401).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("no X-Signature-Ed25519 or X-Signature-Timestamp header")]
    Missing,
    #[error("the signature or timestamp header is malformed")]
    Malformed,
    #[error("the timestamp is more than 5 minutes from this machine's clock")]
    Stale,
    #[error("the signature does not match the body and the public key")]
    Bad,
}

/// Why the configured public key cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    #[error("it is not 64 hexadecimal digits (32 bytes)")]
    NotHex,
    #[error("it is not a valid Ed25519 public key")]
    NotAKey,
}

/// The application's public key.
#[derive(Debug, Clone)]
pub struct PublicKey(VerifyingKey);

/// A request's signature headers, well-formed and recent: what remains is the body.
#[derive(Debug, Clone)]
pub struct Signed {
    signature: Signature,
    timestamp: String,
}

impl PublicKey {
    /// The key as the developer portal shows it: 64 hexadecimal digits.
    pub fn from_hex(text: &str) -> Result<Self, KeyError> {
        let mut bytes = [0_u8; 32];
        hex::decode_to_slice(text.trim(), &mut bytes).map_err(|_| KeyError::NotHex)?;
        VerifyingKey::from_bytes(&bytes)
            .map(Self)
            .map_err(|_| KeyError::NotAKey)
    }

    /// Checks the body against the headers [`precheck`] accepted.
    pub fn verify(&self, signed: &Signed, body: &[u8]) -> Result<(), Refusal> {
        let mut message = Vec::with_capacity(signed.timestamp.len() + body.len());
        message.extend_from_slice(signed.timestamp.as_bytes());
        message.extend_from_slice(body);
        // Strict: no small-order keys, no malleable signatures (Discord's are neither).
        self.0
            .verify_strict(&message, &signed.signature)
            .map_err(|_| Refusal::Bad)
    }
}

/// The checks that need no body: both headers present, the signature 128 hexadecimal digits,
/// the timestamp whole seconds since the Unix epoch within [`MAX_SKEW`] of `now` (seconds).
pub fn precheck(
    signature: Option<&[u8]>,
    timestamp: Option<&[u8]>,
    now: i64,
) -> Result<Signed, Refusal> {
    let (Some(signature), Some(timestamp)) = (signature, timestamp) else {
        return Err(Refusal::Missing);
    };
    let mut bytes = [0_u8; 64];
    hex::decode_to_slice(signature, &mut bytes).map_err(|_| Refusal::Malformed)?;
    // Digits only (no sign, no spaces), and few enough for an i64.
    if timestamp.is_empty() || timestamp.len() > 18 || !timestamp.iter().all(u8::is_ascii_digit) {
        return Err(Refusal::Malformed);
    }
    let timestamp = String::from_utf8_lossy(timestamp).into_owned();
    let seconds: i64 = timestamp.parse().map_err(|_| Refusal::Malformed)?;
    if seconds.abs_diff(now) > MAX_SKEW.as_secs() {
        return Err(Refusal::Stale);
    }
    Ok(Signed {
        signature: Signature::from_bytes(&bytes),
        timestamp,
    })
}

/// Seconds since the Unix epoch by this machine's clock (0 if it is set before 1970).
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use ed25519_dalek::{Signer as _, SigningKey};

    use super::*;

    const NOW: i64 = 1_700_000_000;

    fn key(seed: u8) -> SigningKey {
        SigningKey::from_bytes(&[seed; 32])
    }

    fn public(seed: u8) -> PublicKey {
        PublicKey::from_hex(&hex::encode(key(seed).verifying_key().as_bytes())).expect("a key")
    }

    /// The headers Discord would send for `body` at `timestamp`, signed with `seed`'s key.
    fn headers(seed: u8, timestamp: &str, body: &[u8]) -> (String, String) {
        let mut message = timestamp.as_bytes().to_vec();
        message.extend_from_slice(body);
        let signature = key(seed).sign(&message);
        (hex::encode(signature.to_bytes()), timestamp.to_owned())
    }

    fn check(key: &PublicKey, headers: (&str, &str), body: &[u8]) -> Result<(), Refusal> {
        let signed = precheck(Some(headers.0.as_bytes()), Some(headers.1.as_bytes()), NOW)?;
        key.verify(&signed, body)
    }

    #[test]
    fn a_good_signature_passes() {
        let body = br#"{"type":1}"#;
        let (signature, timestamp) = headers(7, &NOW.to_string(), body);
        assert_eq!(check(&public(7), (&signature, &timestamp), body), Ok(()));
        // Upper-case hex is hex too.
        let upper = signature.to_uppercase();
        assert_eq!(check(&public(7), (&upper, &timestamp), body), Ok(()));
    }

    #[test]
    fn another_key_a_changed_body_or_a_changed_timestamp_fails() {
        let body = br#"{"type":2,"id":"1"}"#;
        let (signature, timestamp) = headers(7, &NOW.to_string(), body);
        assert_eq!(
            check(&public(8), (&signature, &timestamp), body),
            Err(Refusal::Bad),
            "another key"
        );
        assert_eq!(
            check(
                &public(7),
                (&signature, &timestamp),
                br#"{"type":2,"id":"2"}"#
            ),
            Err(Refusal::Bad),
            "a changed body"
        );
        let mut longer = body.to_vec();
        longer.push(b' ');
        assert_eq!(
            check(&public(7), (&signature, &timestamp), &longer),
            Err(Refusal::Bad),
            "one byte more"
        );
        let later = (NOW + 1).to_string();
        assert_eq!(
            check(&public(7), (&signature, &later), body),
            Err(Refusal::Bad),
            "the timestamp is signed too"
        );
        // One bit of the signature flipped.
        let mut bytes = hex::decode(&signature).expect("hex");
        bytes[10] ^= 1;
        assert_eq!(
            check(&public(7), (&hex::encode(bytes), &timestamp), body),
            Err(Refusal::Bad)
        );
    }

    #[test]
    fn missing_headers_are_refused_before_the_body() {
        let good = "00".repeat(64);
        assert_eq!(
            precheck(None, Some(b"1"), NOW).map(|_| ()),
            Err(Refusal::Missing)
        );
        assert_eq!(
            precheck(Some(good.as_bytes()), None, NOW).map(|_| ()),
            Err(Refusal::Missing)
        );
        assert_eq!(precheck(None, None, NOW).map(|_| ()), Err(Refusal::Missing));
    }

    #[test]
    fn malformed_headers_are_refused() {
        let now = NOW.to_string();
        let good = "ab".repeat(64);
        for (signature, timestamp) in [
            ("ab".repeat(63), now.clone()),                  // 63 bytes
            ("ab".repeat(65), now.clone()),                  // 65 bytes
            (format!("{}a", "ab".repeat(63)), now.clone()),  // an odd digit count
            (format!("zz{}", "ab".repeat(63)), now.clone()), // not hex
            (String::new(), now.clone()),
            (good.clone(), String::new()),
            (good.clone(), format!("+{NOW}")),
            (good.clone(), format!(" {NOW}")),
            (good.clone(), format!("{NOW}.5")),
            (good.clone(), "-5".to_owned()),
            (good.clone(), "9".repeat(19)), // beyond an i64
        ] {
            assert_eq!(
                precheck(Some(signature.as_bytes()), Some(timestamp.as_bytes()), NOW).map(|_| ()),
                Err(Refusal::Malformed),
                "{signature:?} {timestamp:?}"
            );
        }
    }

    #[test]
    fn the_timestamp_must_be_within_five_minutes_either_way() {
        let good = "ab".repeat(64);
        let skew = 300;
        for (offset, fresh) in [
            (0, true),
            (-skew, true),
            (skew, true),
            (-skew - 1, false),
            (skew + 1, false),
            (-86_400, false),
            (86_400, false),
        ] {
            let timestamp = (NOW + offset).to_string();
            let got = precheck(Some(good.as_bytes()), Some(timestamp.as_bytes()), NOW).map(|_| ());
            let want = if fresh { Ok(()) } else { Err(Refusal::Stale) };
            assert_eq!(got, want, "{offset} s");
        }
        // A good signature from an hour ago is still refused: stale before it is checked.
        let body = br#"{"type":1}"#;
        let (signature, timestamp) = headers(7, &(NOW - 3_600).to_string(), body);
        assert_eq!(
            check(&public(7), (&signature, &timestamp), body),
            Err(Refusal::Stale)
        );
    }

    #[test]
    fn a_public_key_must_be_thirty_two_bytes_of_hex_on_the_curve() {
        let hex_key = hex::encode(key(7).verifying_key().as_bytes());
        assert!(PublicKey::from_hex(&hex_key).is_ok());
        assert!(
            PublicKey::from_hex(&format!(" {hex_key}\n")).is_ok(),
            "spaces around it"
        );
        for bad in [
            String::new(),
            hex_key[..62].to_owned(),
            format!("{hex_key}00"),
            format!("g{}", &hex_key[1..]),
        ] {
            assert_eq!(
                PublicKey::from_hex(&bad).map(|_| ()),
                Err(KeyError::NotHex),
                "{bad:?}"
            );
        }
        // 32 bytes that decompress to no point of the curve.
        let off_curve = format!("02{}", "00".repeat(31));
        assert_eq!(
            PublicKey::from_hex(&off_curve).map(|_| ()),
            Err(KeyError::NotAKey)
        );
    }
}
