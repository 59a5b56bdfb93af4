//! `/tftkit gear item [quality] [silver] [hits] [character]`: what a weapon, armor or shield costs,
//! what mending it costs, how it wears or splits with the hits it has taken, and whether a
//! figure may carry a weapon as its second. Rolls nothing and changes nothing.
//!
//! Owns reading the item's name against the three gear tables; every number is
//! `rules::tft::gear`'s.

use super::attack::parse_quality;
use super::shared::{field, tft_sheet};
use crate::app::invocation::{Invocation, Opts};
use crate::app::reply::{Embed, Field, Reply, Tone};
use crate::app::screen;
use crate::app::text::escape;
use crate::app::{AppResult, Ctx, user};
use crate::rules::tft::gear::{self, Armor, GearError, Quality, Shield, Weapon, Wear};

/// The most hits an item is asked about.
const MAX_HITS: i64 = 10_000;

/// A parsed `/tft gear`.
#[derive(Debug, Clone)]
pub struct Lookup {
    item: String,
    quality: Quality,
    silver: bool,
    hits: Option<i32>,
    character: Option<String>,
}

impl Lookup {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["item", "quality", "silver", "hits", "character"])?;
        let quality = match o.text("quality") {
            None => Quality::Plain,
            Some(q) => parse_quality(q).ok_or_else(|| {
                user(format!(
                    "quality must be plain, good, fine, fine+1, fine+2, fine-dx+1 or fine-dx+2; you gave \"{}\"",
                    escape(q.trim())
                ))
            })?,
        };
        Ok(Self {
            item: o.required("item")?.trim().to_owned(),
            quality,
            silver: o.flag("silver")?,
            hits: o.int("hits", 0, MAX_HITS)?.map(|h| h as i32),
            character: o.text("character").map(str::to_owned),
        })
    }

    /// What of this look-up only the house rules have (tft-house-rules.txt, "Fine Weapons",
    /// "Good Weapons", "Fine Armor", "Repairing Armor", "Shields", "Two Weapons", "Great Bow",
    /// "Lance and Pike Rules"), for a guild that turned them off.
    pub(super) fn house_rule(&self) -> Option<&'static str> {
        if self.quality != Quality::Plain || self.silver {
            return Some("Weapon quality (good, fine, silver)");
        }
        if self.hits.is_some() {
            return Some("Armor and shield wear");
        }
        if self.character.is_some() {
            return Some("The Two Weapons second-weapon rule");
        }
        match find(&self.item).ok()? {
            Item::Weapon(w) if w.house_rule => Some("This weapon"),
            Item::Armor(a) if a.kind.is_fine() => Some("Fine armor"),
            Item::Shield(s) if s.kind == gear::ShieldKind::MetalSmall => Some("The metal shield"),
            _ => None,
        }
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let st = match self.character.as_deref() {
            None => None,
            Some(name) => {
                let sheet = ctx.app.store.write(|tx| -> AppResult<_> {
                    let c = ctx.find_character(tx, name)?;
                    // The figure as the answer names it: "Orc 2 (ST 12)", an NPC's ST the GM's.
                    let st = tft_sheet(&c)?.st;
                    let label = format!(
                        "{} ({})",
                        escape(&c.name),
                        screen::npc(c.npc, format!("ST {st}"))
                    );
                    Ok((label, st))
                })?;
                Some(sheet)
            }
        };
        let embed = match find(&self.item)? {
            Item::Weapon(w) => self.weapon(w, st.as_ref())?,
            Item::Armor(a) => self
                .only_weapons_have(a.name, st.as_ref())
                .map(|()| self.armor(a))?,
            Item::Shield(s) => self
                .only_weapons_have(s.name, st.as_ref())
                .map(|()| self.shield(s))?,
        };
        Ok(Reply::public("").with_embed(embed))
    }

    /// Refuses options that only mean something for a weapon.
    fn only_weapons_have(&self, name: &str, st: Option<&(String, i32)>) -> AppResult<()> {
        if self.quality != Quality::Plain || self.silver || st.is_some() {
            return Err(user(format!(
                "quality, silver and character are for weapons; {name} is not one."
            )));
        }
        Ok(())
    }

    fn weapon(&self, w: &Weapon, st: Option<&(String, i32)>) -> AppResult<Embed> {
        if self.hits.is_some() {
            return Err(user(format!(
                "hits is for armor and shields; a {} does not wear down.",
                w.name
            )));
        }
        let price = self
            .quality
            .price(w, self.silver)
            .map_err(|e| user(format!("{e}.")))?;
        let mut fields = vec![field(
            "Price",
            price.map_or_else(|| "not printed".to_owned(), |p| format!("${p}")),
            true,
        )];
        if let (Some(base), Some(p)) = (w.cost, price)
            && p != base
        {
            fields.push(field("Plain price", format!("${base}"), true));
        }
        if let Some((name, st)) = st {
            // tft-house-rules.txt, "Two Weapons".
            let answer = if w.second_weapon_for(*st) {
                format!("{name} may carry it as a second weapon with Two Weapons.")
            } else {
                format!(
                    "{name} may not: a second weapon is one-handed and needs less ST than the figure has."
                )
            };
            fields.push(field("Second weapon", answer, false));
        }
        Ok(Embed {
            title: format!("{}{}", quality_name(self.quality, self.silver), w.name),
            description: format!("A {} weapon.", hands(w)),
            tone: Some(Tone::Info),
            fields,
            footer: None,
        })
    }

    fn armor(&self, a: &Armor) -> Embed {
        let (worn, battered) = a.wear_thresholds();
        let mut fields = vec![
            field("Stops", a.stops.to_string(), true),
            field("Price", format!("${}", a.cost), true),
            field(
                "Mending",
                a.repair_cost().map_or_else(
                    || "cannot be mended (only metal armor can)".to_owned(),
                    |c| format!("${c}"),
                ),
                true,
            ),
            field(
                "Wear",
                format!("stops 1 fewer from {worn} hits taken, 2 fewer from {battered}"),
                false,
            ),
        ];
        if let Some(hits) = self.hits {
            let wear = a.wear(hits);
            let state = match wear {
                Wear::Sound => "sound",
                Wear::Worn => "falling apart",
                Wear::Battered => "in very bad shape",
            };
            fields.push(field(
                "Now",
                format!("after {hits} hits: {state}, stops {}", a.stops_when(wear)),
                false,
            ));
        }
        Embed {
            title: a.name.to_owned(),
            description: if a.kind.is_fine() {
                "Fine armor (tft-house-rules.txt): mended for 10% of its price.".to_owned()
            } else {
                "Body armor.".to_owned()
            },
            tone: Some(Tone::Info),
            fields,
            footer: None,
        }
    }

    fn shield(&self, s: &Shield) -> Embed {
        let mut fields: Vec<Field> = vec![
            field("Stops", s.stops.to_string(), true),
            field("Price", format!("${}", s.cost), true),
            field(
                "Mending",
                s.repair_cost().map_or_else(
                    || "cannot be mended (only the metal shield can)".to_owned(),
                    |c| format!("${c}"),
                ),
                true,
            ),
            field("Splits", format!("at {} hits taken", s.splits_at()), true),
        ];
        if let Some(hits) = self.hits {
            let state = if s.is_split(hits) {
                "split and useless"
            } else {
                "whole"
            };
            fields.push(field("Now", format!("after {hits} hits: {state}"), false));
        }
        Embed {
            title: s.name.to_owned(),
            description: if s.kind.is_small() {
                "A small shield: it parries and defends with the small shield's penalties."
                    .to_owned()
            } else {
                "A large shield: it parries and defends with the large shield's penalties."
                    .to_owned()
            },
            tone: Some(Tone::Info),
            fields,
            footer: None,
        }
    }
}

enum Item {
    Weapon(&'static Weapon),
    Armor(&'static Armor),
    Shield(&'static Shield),
}

/// The item named, from the weapon, armor and shield tables in turn.
fn find(name: &str) -> AppResult<Item> {
    let refuse = |e: &GearError| user(format!("{}.", escape(&e.to_string())));
    match gear::weapon(name) {
        Ok(w) => return Ok(Item::Weapon(w)),
        Err(e @ GearError::Ambiguous { .. }) => return Err(refuse(&e)),
        Err(_) => {}
    }
    match gear::armor(name) {
        Ok(a) => return Ok(Item::Armor(a)),
        Err(e @ GearError::Ambiguous { .. }) => return Err(refuse(&e)),
        Err(_) => {}
    }
    match gear::shield(name) {
        Ok(s) => Ok(Item::Shield(s)),
        Err(e @ GearError::Ambiguous { .. }) => Err(refuse(&e)),
        Err(_) => Err(user(format!(
            "There is no weapon, armor or shield called \"{}\".",
            escape(name)
        ))),
    }
}

fn quality_name(q: Quality, silver: bool) -> String {
    let silver = if silver { "silver " } else { "" };
    match q {
        Quality::Plain => String::new(),
        Quality::Good => "Good ".to_owned(),
        Quality::Fine(g) => format!(
            "Fine {silver}(+{} DX, +{} damage) ",
            g.dx_bonus(),
            g.damage_bonus()
        ),
    }
}

fn hands(w: &Weapon) -> &'static str {
    match w.hands {
        gear::Hands::One => "one-handed",
        gear::Hands::Two => "two-handed",
    }
}
