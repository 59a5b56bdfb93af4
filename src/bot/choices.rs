//! Fixed menus as Discord choices, so a bad value never reaches `app` (STYLE §3). Each choice's
//! name is the value `app` parses, the same word the console types.

/// Who sees a roll (SPEC §2, "Roll modes").
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Mode {
    #[name = "public"]
    Public,
    #[name = "private"]
    Private,
    #[name = "blind"]
    Blind,
    #[name = "self"]
    SelfOnly,
}

/// A game system.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
#[allow(dead_code)] // used by the commands arriving next
pub enum System {
    #[name = "thiz"]
    Thiz,
    #[name = "tft"]
    Tft,
}

/// What a luck point is spent on.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
#[allow(dead_code)] // used by the commands arriving next
pub enum LuckKind {
    #[name = "reroll"]
    Reroll,
    #[name = "wound"]
    Wound,
    #[name = "stunt"]
    Stunt,
}
