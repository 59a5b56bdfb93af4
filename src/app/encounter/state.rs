//! The tracker's state as stored (one JSON document per encounter) and the moves every system
//! shares: finding figures, whose turn it is, declared options, the short log of what happened.
//! Pure: no store, no dice of its own. The per-system order lives in [`super::thiz`] and
//! [`super::tft`].
//!
//! Seam: `/tft attack` (`app::tft`) reads what a figure declared ([`Declared`]) to fill the
//! options left out.

use serde::{Deserialize, Serialize};

use crate::store::{CharacterId, UserId};

/// The most figures one encounter holds (the THIZ initiative rules' own bound).
pub const MAX_FIGURES: usize = crate::rules::thiz::combat::MAX_COMBATANTS;
/// How many recent events the status message lists.
pub const MAX_EVENTS: usize = 4;

/// The two sides of a fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Team {
    /// The players' side (and its allies).
    Party,
    Foes,
}

impl Team {
    pub fn name(self) -> &'static str {
        match self {
            Team::Party => "party",
            Team::Foes => "foes",
        }
    }

    pub fn parse(s: &str) -> Option<Team> {
        match s.trim().to_ascii_lowercase().as_str() {
            "party" | "players" | "pcs" => Some(Team::Party),
            "foes" | "enemies" | "npcs" => Some(Team::Foes),
            _ => None,
        }
    }
}

/// How the first round opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Surprise {
    /// THIZ: everyone checks Preparedness. TFT: no side is surprised.
    #[default]
    Check,
    /// Nobody is surprised; the fight starts with initiative.
    None,
    /// The referee declares an ambush by this side.
    Ambush(Team),
}

impl Surprise {
    pub const NAMES: [&'static str; 4] = ["check", "none", "ambush-party", "ambush-foes"];

    pub fn parse(s: &str) -> Option<Surprise> {
        match s.trim().to_ascii_lowercase().as_str() {
            "check" => Some(Surprise::Check),
            "none" => Some(Surprise::None),
            "ambush-party" => Some(Surprise::Ambush(Team::Party)),
            "ambush-foes" => Some(Surprise::Ambush(Team::Foes)),
            _ => None,
        }
    }
}

/// An option a figure declared for itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Declared {
    /// THIZ Defend: its weapon skill adds to Speed against the first attack before its next turn.
    Defend,
    /// THIZ Wait: it acts when its trigger comes (or before, on a Reflexes check).
    Wait,
    /// THIZ: lying Prone (+3 to melee attacks on it, −3 to missiles) until it stands.
    Prone,
    /// TFT: defending (one more die for attacks on it this round).
    Defending,
    /// TFT: dodging (one more die for missile and thrown attacks on it).
    Dodging,
    /// TFT: charging this round.
    Charge,
}

impl Declared {
    pub fn name(self) -> &'static str {
        match self {
            Declared::Defend => "defend",
            Declared::Wait => "wait",
            Declared::Prone => "prone",
            Declared::Defending => "defending",
            Declared::Dodging => "dodging",
            Declared::Charge => "charge",
        }
    }

    /// The option as a verb: "cannot defend with that many actions".
    pub fn verb(self) -> &'static str {
        match self {
            Declared::Defend | Declared::Defending => "defend",
            Declared::Wait => "wait",
            Declared::Prone => "lie prone",
            Declared::Dodging => "dodge",
            Declared::Charge => "charge",
        }
    }

    pub fn parse(s: &str) -> Option<Declared> {
        [
            Declared::Defend,
            Declared::Wait,
            Declared::Prone,
            Declared::Defending,
            Declared::Dodging,
            Declared::Charge,
        ]
        .into_iter()
        .find(|d| d.name() == s.trim().to_ascii_lowercase())
    }

    /// Whether the option belongs to the system (`tft` true for TFT).
    pub fn fits(self, tft: bool) -> bool {
        match self {
            Declared::Defend | Declared::Wait | Declared::Prone => !tft,
            Declared::Defending | Declared::Dodging | Declared::Charge => tft,
        }
    }
}

/// One figure in the fight: a character (a player's, an NPC, or an NPC copy made for this fight).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
// Each flag is a separate fact of the fight (declared, down, late, acted...), stored as is.
#[allow(clippy::struct_excessive_bools)]
pub struct Figure {
    pub id: CharacterId,
    pub name: String,
    pub team: Team,
    pub npc: bool,
    pub owner: UserId,
    /// THIZ: this pass's initiative (hidden for NPCs).
    #[serde(default)]
    pub initiative: Option<i32>,
    /// How the number was made, for the GM ("d10 7 + Speed + Perception 6 = 13").
    #[serde(default)]
    pub detail: String,
    #[serde(default)]
    pub declared: Option<Declared>,
    /// THIZ Defend counts against the first attack only.
    #[serde(default)]
    pub defend_used: bool,
    /// Out of the order: down, dying, unconscious, dead (or, in TFT, knocked down this round).
    #[serde(default)]
    pub down: bool,
    /// THIZ: joined a fight under way; takes part from the next Initiative Pass.
    #[serde(default)]
    pub late: bool,
    /// TFT: hits taken this round (8 or more knock it down).
    #[serde(default)]
    pub hits_round: i32,
    /// TFT: hits taken since its last action (5 or more cost 2 adjDX).
    #[serde(default)]
    pub hits_since: i32,
    /// TFT: it has had its turn this round.
    #[serde(default)]
    pub acted: bool,
    /// TFT, multiple actions: the meta-option chosen this round (actions, movement boost).
    #[serde(default)]
    pub meta: Option<(u32, bool)>,
    /// Attack rolls made in its current turn (TFT: earlier rolls, and the actions counted;
    /// THIZ: one attack a turn, two with two weapons).
    #[serde(default)]
    pub rolls_this_turn: u32,
    /// TFT: this turn's first roll was the first of a bow's two shots (`shooting-twice`), so a
    /// second shot may follow in the same action.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub twice: bool,
}

impl Figure {
    /// A figure as it joins the fight: no initiative, nothing declared, nothing counted yet.
    pub fn joining(id: CharacterId, name: String, team: Team, npc: bool, owner: UserId) -> Self {
        Self {
            id,
            name,
            team,
            npc,
            owner,
            initiative: None,
            detail: String::new(),
            declared: None,
            defend_used: false,
            down: false,
            late: false,
            hits_round: 0,
            hits_since: 0,
            acted: false,
            meta: None,
            rolls_this_turn: 0,
            twice: false,
        }
    }
}

/// One turn in the order: a figure, and which of its turns in the pass it is (THIZ: 1, then 2
/// after the first drop of 10...; TFT: always 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    pub figure: CharacterId,
    pub step: u32,
}

/// TFT: the round's initiative.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TftRound {
    /// Every pair of dice (party's, foes'); more than one pair means ties rolled again.
    pub rolls: Vec<(u32, u32)>,
    pub bonus: (i32, i32),
    /// The side that won and so chooses who moves first.
    pub winner: Team,
    pub by_surprise: bool,
    /// The initiative sum the multiple-actions variant reads.
    pub sum: u32,
    /// The side that moves first, once the winner has chosen (`None`: not yet asked back).
    #[serde(default)]
    pub moves_first: Option<Team>,
}

/// The whole tracker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct State {
    pub surprise: Surprise,
    /// 0 before the fight begins (setup); THIZ: the Initiative Pass; TFT: the round.
    pub round: u32,
    /// The current pass is the surprise opening (THIZ), before the first Initiative Pass.
    #[serde(default)]
    pub opening: bool,
    pub figures: Vec<Figure>,
    /// THIZ: this pass's turns in order; TFT: this round's turns so far, the last the current.
    pub order: Vec<Slot>,
    /// Index into `order` of whose turn it is.
    pub turn: usize,
    /// Turns moved on in all (each press of "next" that counted).
    pub turns: u64,
    #[serde(default)]
    pub tft: Option<TftRound>,
    /// The last few things that happened, newest last (public: names and states only).
    #[serde(default)]
    pub events: Vec<String>,
    /// THIZ: the surprise check's Preparedness rolls, each as (who, the roll) (the GM's: they
    /// carry the sheets' ratings).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preparedness: Vec<(String, String)>,
    /// Effects that last so many turns or rounds (a stun, a spell's upkeep, a crossbow's
    /// reload), counted down as the fight goes on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timed: Vec<Timed>,
    /// TFT: the continuing spells whose round ran out when this round began, each still
    /// renewable until the next round begins (see [`State::tick`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lapsed: Vec<Timed>,
}

/// What a timed effect counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeUnit {
    /// The figure's own turns: one goes when its turn ends.
    Turn,
    /// Rounds (TFT) or Initiative Passes (THIZ): one goes when a new one begins.
    Round,
}

impl TimeUnit {
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "turn" | "turns" => Some(TimeUnit::Turn),
            "round" | "rounds" | "pass" | "passes" => Some(TimeUnit::Round),
            _ => None,
        }
    }

    /// "turn"/"turns", or "round"/"rounds" (THIZ: "pass"/"passes").
    pub fn noun(self, n: u32, thiz: bool) -> &'static str {
        match (self, n == 1, thiz) {
            (TimeUnit::Turn, true, _) => "turn",
            (TimeUnit::Turn, false, _) => "turns",
            (TimeUnit::Round, true, true) => "pass",
            (TimeUnit::Round, false, true) => "passes",
            (TimeUnit::Round, true, false) => "round",
            (TimeUnit::Round, false, false) => "rounds",
        }
    }
}

/// One timed effect on a figure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timed {
    pub figure: CharacterId,
    /// The figure's name, for the lines that tell of it.
    pub name: String,
    /// What it is ("stunned", "Light", "reloading").
    pub what: String,
    /// How many turns or rounds are left; it ends when this reaches 0.
    pub left: u32,
    pub unit: TimeUnit,
    /// TFT: a continuing spell's ST a round to renew it (its upkeep); `None` for anything else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upkeep: Option<u32>,
}

impl Timed {
    /// The line that tells the table the effect is over (a continuing spell: that it ends
    /// unless its caster renews it now), the name and the effect passed through `esc`.
    pub fn over_line(&self, esc: fn(&str) -> String) -> String {
        let (name, what) = (esc(&self.name), esc(&self.what));
        match self.upkeep {
            Some(st) => format!(
                "{name}: {what} ends unless renewed now ({st} ST with /tftkit cast spell:{what} renew:true)."
            ),
            None => format!("{name}: {what} is over."),
        }
    }
}

impl State {
    /// Counts the timed effects down: those in turns of `ended` (whose turn just ended), and
    /// those in rounds when `new_round` (a new round or Initiative Pass began). Those that run
    /// out are taken off and come back, in the order they were set.
    ///
    /// A continuing spell that runs out as a round begins is kept in `lapsed` for that round, in
    /// which its caster may still renew it (tft-rules-summary.md, "RENEW SPELLS"); what lapsed
    /// in the round before and was not renewed is gone for good.
    pub fn tick(&mut self, ended: Option<CharacterId>, new_round: bool) -> Vec<Timed> {
        if new_round {
            self.lapsed.clear();
        }
        let mut over = Vec::new();
        self.timed.retain_mut(|t| {
            let counts = match t.unit {
                TimeUnit::Turn => ended == Some(t.figure),
                TimeUnit::Round => new_round,
            };
            if counts {
                t.left = t.left.saturating_sub(1);
            }
            if t.left == 0 {
                over.push(t.clone());
                false
            } else {
                true
            }
        });
        if new_round {
            self.lapsed
                .extend(over.iter().filter(|t| t.upkeep.is_some()).cloned());
        }
        over
    }

    /// TFT: a continuing spell kept up by `f` to the end of this round, renewable for `st` ST
    /// a round (tft-rules-summary.md, "RENEW SPELLS": the round it is cast or renewed counts
    /// as its first). Takes it off the lapsed list.
    pub fn set_upkeep(&mut self, f: &Figure, spell: &str, st: u32) {
        let key = spell.trim().to_lowercase();
        self.lapsed
            .retain(|t| !(t.figure == f.id && t.what.to_lowercase() == key));
        self.set_timed(f, spell, 1, TimeUnit::Round);
        if let Some(t) = self.timed.last_mut() {
            t.upkeep = Some(st);
        }
    }

    /// Ends every continuing spell `id` keeps up, running or lapsed: a caster who dies or
    /// falls unconscious keeps none up (tft-rules-summary.md, "RENEW SPELLS"). Returns them.
    pub fn end_upkeep_of(&mut self, id: CharacterId) -> Vec<Timed> {
        let mut ended = Vec::new();
        self.timed.retain(|t| {
            let ends = t.figure == id && t.upkeep.is_some();
            if ends {
                ended.push(t.clone());
            }
            !ends
        });
        self.lapsed.retain(|t| t.figure != id);
        ended
    }

    /// Sets an effect on a figure (replacing one of the same name), or takes it off with 0.
    pub fn set_timed(&mut self, f: &Figure, what: &str, left: u32, unit: TimeUnit) {
        let key = what.trim().to_lowercase();
        self.timed
            .retain(|t| !(t.figure == f.id && t.what.to_lowercase() == key));
        if left > 0 {
            self.timed.push(Timed {
                figure: f.id,
                name: f.name.clone(),
                what: what.trim().to_owned(),
                left,
                unit,
                upkeep: None,
            });
        }
    }
}

/// What the last "next" changed, kept so a GM can take it back (one level).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Undo {
    /// The encounter's version right after that "next": the undo holds only while nothing
    /// else has changed the encounter since.
    pub version: i64,
    /// The whole state before it, to put back as it was.
    pub before: State,
}

/// The encounter's stored document: the state, with the undo of the last "next" beside it (not
/// in it, so that taking a "next" back restores the state exactly). Rows written before the
/// undo existed read with none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    #[serde(flatten)]
    pub state: State,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undo: Option<Box<Undo>>,
}

/// [`Stored`] as written, without copying the state.
#[derive(Debug, Serialize)]
pub struct StoredRef<'s> {
    #[serde(flatten)]
    pub state: &'s State,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undo: Option<&'s Undo>,
}

impl State {
    pub fn new(surprise: Surprise) -> Self {
        State {
            surprise,
            ..State::default()
        }
    }

    pub fn begun(&self) -> bool {
        self.round > 0 || self.opening
    }

    pub fn figure(&self, id: CharacterId) -> Option<&Figure> {
        self.figures.iter().find(|f| f.id == id)
    }

    pub fn figure_mut(&mut self, id: CharacterId) -> Option<&mut Figure> {
        self.figures.iter_mut().find(|f| f.id == id)
    }

    /// The figure whose turn it is, once the fight has begun.
    pub fn current(&self) -> Option<&Figure> {
        if !self.begun() {
            return None;
        }
        self.order
            .get(self.turn)
            .and_then(|s| self.figure(s.figure))
    }

    pub fn current_slot(&self) -> Option<Slot> {
        self.begun().then(|| self.order.get(self.turn).copied())?
    }

    /// Records a public event, keeping the last few.
    pub fn event(&mut self, text: impl Into<String>) {
        self.events.push(text.into());
        if self.events.len() > MAX_EVENTS {
            let extra = self.events.len() - MAX_EVENTS;
            self.events.drain(..extra);
        }
    }

    /// Takes a figure out of the order where it stands, whatever put it down (an attack, a
    /// wound or hits written on its sheet, a hazard, a GM's condition): it is marked down and
    /// its turns still to come are dropped, so no later turn of it is skipped or shown as taken.
    /// The current turn and the turns already taken stay as they are. Returns whether the
    /// figure was standing until now (`false`: not in the fight, or down already).
    pub fn take_out(&mut self, id: CharacterId) -> bool {
        let Some(f) = self.figure_mut(id) else {
            return false;
        };
        if f.down {
            return false;
        }
        f.down = true;
        let turn = self.turn;
        let mut i = 0;
        self.order.retain(|slot| {
            let keep = slot.figure != id || i <= turn;
            i += 1;
            keep
        });
        true
    }

    /// Takes a figure out of the order for good (removed from the fight). Its turns still to
    /// come are dropped; if it was the current one, the turn stays on the slot after it.
    pub fn remove(&mut self, id: CharacterId) -> Option<Figure> {
        let at = self.figures.iter().position(|f| f.id == id)?;
        let figure = self.figures.remove(at);
        let mut kept = Vec::with_capacity(self.order.len());
        let mut turn = self.turn;
        for (i, slot) in self.order.iter().enumerate() {
            if slot.figure == id && i >= self.turn {
                continue;
            }
            if slot.figure == id && i < self.turn {
                turn -= 1;
                continue;
            }
            kept.push(*slot);
        }
        self.order = kept;
        self.turn = turn;
        Some(figure)
    }

    /// The next free number for copies of `base` ("Goblin 3" when 1 and 2 are in the fight).
    pub fn next_number(&self, base: &str, taken: impl Fn(&str) -> bool) -> u32 {
        (1..=u32::MAX)
            .find(|n| {
                let name = format!("{base} {n}");
                !taken(&name)
                    && !self
                        .figures
                        .iter()
                        .any(|f| f.name.eq_ignore_ascii_case(&name))
            })
            .unwrap_or(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row of the timed-effects table: whose turn ends, a new round?, what is left of each.
    type Row = (
        Option<i64>,
        bool,
        Option<u32>,
        Option<u32>,
        &'static [&'static str],
    );

    /// Timed effects (issue 31): one of `per:turn` goes when its own figure's turn ends and
    /// never on another's; one of `per:round` goes when a round (pass) begins; each ends, with a
    /// line, on the tick that takes it from 1 to 0, and not the tick before.
    #[test]
    fn timed_effects_count_down_by_their_unit_and_end_at_zero() {
        let (a, b) = (figure(1, "Alys"), figure(2, "Bran"));
        let mut s = State::new(Surprise::None);
        s.set_timed(&a, "stunned", 2, TimeUnit::Turn);
        s.set_timed(&b, "Light", 1, TimeUnit::Round);
        // (whose turn ends, a new round?, Alys's left, Bran's left, lines)
        let table: [Row; 4] = [
            (Some(2), false, Some(2), Some(1), &[]),
            (Some(1), false, Some(1), Some(1), &[]),
            (None, true, Some(1), None, &["Bran: Light is over."]),
            (Some(1), false, None, None, &["Alys: stunned is over."]),
        ];
        for (ended, new_round, alys, bran, lines) in table {
            let over: Vec<String> = s
                .tick(ended.map(CharacterId), new_round)
                .iter()
                .map(|t| format!("{}: {} is over.", t.name, t.what))
                .collect();
            assert_eq!(over, lines, "after {ended:?}, {new_round}");
            let left = |id: i64| {
                s.timed
                    .iter()
                    .find(|t| t.figure == CharacterId(id))
                    .map(|t| t.left)
            };
            assert_eq!(
                (left(1), left(2)),
                (alys, bran),
                "after {ended:?}, {new_round}"
            );
        }
        // Set again by name (any case) replaces; 0 takes it off.
        s.set_timed(&a, "Stunned", 3, TimeUnit::Turn);
        s.set_timed(&a, "stunned", 1, TimeUnit::Turn);
        assert_eq!(s.timed.len(), 1);
        assert_eq!(s.timed[0].left, 1);
        s.set_timed(&a, "STUNNED", 0, TimeUnit::Turn);
        assert!(s.timed.is_empty());
    }

    fn figure(id: i64, name: &str) -> Figure {
        Figure::joining(
            CharacterId(id),
            name.to_owned(),
            Team::Party,
            false,
            UserId(1),
        )
    }

    fn slot(id: i64) -> Slot {
        Slot {
            figure: CharacterId(id),
            step: 1,
        }
    }

    #[test]
    fn removing_a_figure_keeps_the_turn_on_the_same_figure() {
        let mut s = State::new(Surprise::None);
        s.round = 1;
        s.figures = vec![figure(1, "A"), figure(2, "B"), figure(3, "C")];
        s.order = vec![slot(1), slot(2), slot(3), slot(1)];
        s.turn = 2;
        // A acted before the current turn and is due again after it: both its slots go, and C
        // stays current.
        s.remove(CharacterId(1)).unwrap();
        assert_eq!(s.order, vec![slot(2), slot(3)]);
        assert_eq!(s.current().unwrap().name, "C");
        // Removing the current figure leaves the turn on the one after it (here: none left).
        s.remove(CharacterId(3)).unwrap();
        assert_eq!(s.turn, 1);
        assert!(s.current().is_none());
        assert!(s.remove(CharacterId(9)).is_none());
    }

    #[test]
    fn taking_a_figure_out_drops_its_turns_to_come_only() {
        let mut s = State::new(Surprise::None);
        s.round = 1;
        s.figures = vec![figure(1, "A"), figure(2, "B"), figure(3, "C")];
        s.order = vec![slot(1), slot(2), slot(3), slot(1), slot(2)];
        s.turn = 1;
        // B is current: its current turn stays, its later one goes.
        assert!(s.take_out(CharacterId(2)));
        assert_eq!(s.order, vec![slot(1), slot(2), slot(3), slot(1)]);
        assert_eq!(s.current().unwrap().name, "B");
        // A acted already: that turn stays, its turn to come goes.
        assert!(s.take_out(CharacterId(1)));
        assert_eq!(s.order, vec![slot(1), slot(2), slot(3)]);
        assert!(s.figure(CharacterId(1)).unwrap().down);
        // Down already, or not in the fight: nothing changes.
        assert!(!s.take_out(CharacterId(1)));
        assert!(!s.take_out(CharacterId(9)));
        assert_eq!(s.order.len(), 3);
    }

    #[test]
    fn state_round_trips_and_old_fields_default() {
        let mut s = State::new(Surprise::Ambush(Team::Foes));
        s.figures.push(figure(4, "Goblin 1"));
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<State>(&json).unwrap(), s);
        let numbered = s.next_number("Goblin", |n| n == "Goblin 2");
        assert_eq!(numbered, 3);
        assert_eq!(
            Surprise::parse("ambush-party"),
            Some(Surprise::Ambush(Team::Party))
        );
        assert_eq!(Surprise::parse("x"), None);
        assert!(Declared::Defend.fits(false) && !Declared::Defend.fits(true));
        assert_eq!(Declared::parse(" Dodging"), Some(Declared::Dodging));
    }

    #[test]
    fn events_keep_the_last_few() {
        let mut s = State::default();
        for i in 0..10 {
            s.event(format!("e{i}"));
        }
        assert_eq!(s.events.len(), MAX_EVENTS);
        assert_eq!(s.events.last().unwrap(), "e9");
    }
}
