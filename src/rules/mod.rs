//! The game rules, pure.
//!
//! Owns every calculation and roll of THIZ ([`thiz`]) and The Fantasy Trip ([`tft`]), and the
//! dice ([`dice`]). Must never do I/O, be async, or know about Discord or SQL: randomness comes in
//! through [`dice::DieSource`], and results are plain data that `app` stores and `bot` renders.
//! `.ci/run` greps this folder to keep it so.

pub mod dice;
pub mod tft;
pub mod thiz;
