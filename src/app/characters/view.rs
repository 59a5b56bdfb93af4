//! `show`, `list` and `validate`: the public sheet as an embed, the characters a caller may see,
//! and every breach of the creation or point rules. Reads only public tables.

use super::fields;
use crate::app::layout::{line_fields, list_embed, paged, pick};
use crate::app::reply::{Embed, Field, Reply, Tone};
use crate::app::sheet::{ItemStats, Sheet, TftSheet, ThizSheet};
use crate::app::text::{escape, signed, truncate};
use crate::app::thiz::record;
use crate::app::{AppResult, Ctx, user};
use crate::rules::tft::character::{
    self as tft_char, Attributes, Encumbrance, SheetPoints, Talent,
};
use crate::rules::tft::gear;
use crate::rules::thiz::advancement::special_breaches;
use crate::rules::thiz::creation::{self, Draft};
use crate::rules::thiz::skills::{GeneralRatings, SkillId};
use crate::rules::thiz::traits::{Quirk, QuirkChoice, Weakness};
use crate::store::characters::{self, Character, Item, SkillRow, WoundRow};
use crate::store::guilds::System;
use crate::store::{Conn, GuildId};

/// A character with every public part of its sheet.
pub(super) struct Loaded {
    pub character: Character,
    pub sheet: Sheet,
    pub skills: Vec<SkillRow>,
    pub items: Vec<Item>,
    pub wounds: Vec<WoundRow>,
    /// TFT hits taken and fatigue.
    pub damage: (i64, i64),
}

pub(super) fn load(conn: &Conn, guild: GuildId, character: Character) -> AppResult<Loaded> {
    let id = character.id;
    Ok(Loaded {
        sheet: Sheet::of(&character)?,
        skills: characters::skills(conn, guild, id)?,
        items: characters::items(conn, guild, id)?,
        wounds: characters::wounds(conn, guild, id)?,
        damage: characters::tft_damage(conn, guild, id)?,
        character,
    })
}

/// The stored skills as the rules know them (a row that no longer parses is left out).
fn skill_ids(skills: &[SkillRow]) -> Vec<(SkillId, i32)> {
    skills
        .iter()
        .filter_map(|s| Some((SkillId::parse(&s.skill).ok()?, s.rating as i32)))
        .collect()
}

/// Chapter 4: Celestial Guidance and Expert Tracker are taken for a chosen time or kind of
/// creature; one listed without its choice gives nothing until the choice is recorded.
fn unchosen_quirks(sheet: &ThizSheet) -> Vec<String> {
    sheet
        .quirks
        .iter()
        .filter_map(|entry| {
            let q = Quirk::from_entry(entry)?;
            if q.choices().is_empty() || QuirkChoice::of_entry(entry).is_some() {
                return None;
            }
            let names: Vec<&str> = q.choices().iter().map(|c| c.name()).collect();
            Some(format!(
                "{} is taken for one of {}, and the sheet records none: set it as \"{} ({})\" or the like",
                q.name(),
                names.join(", "),
                q.name(),
                names[0]
            ))
        })
        .collect()
}

/// Chapter 10 "Training" and chapter 7: a Special is in a skill the character has, and a Magic
/// Skill holds one (`rules::thiz::advancement::special_breaches`).
fn special_problems(sheet: &ThizSheet, skills: &[SkillRow]) -> Vec<String> {
    let specials: Vec<SkillId> = sheet
        .specials
        .iter()
        .filter_map(|s| fields::parse_special(s).map(|(id, _)| id))
        .collect();
    let known: Vec<SkillId> = skill_ids(skills).into_iter().map(|(id, _)| id).collect();
    special_breaches(&specials, &known)
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// The THIZ creation draft a sheet stands for.
pub(super) fn draft(sheet: &ThizSheet, skills: &[SkillRow]) -> Draft {
    Draft {
        skills: skill_ids(skills),
        weaknesses: sheet
            .weaknesses
            .iter()
            .filter_map(|w| fields::parse_weakness(w))
            .collect(),
        quirks: sheet
            .quirks
            .iter()
            .filter_map(|q| Quirk::from_entry(q))
            .collect(),
        parent_skill: sheet
            .parent_skill
            .as_deref()
            .and_then(|s| SkillId::parse(s).ok()),
        missing_limb: sheet.missing_limb.as_deref().and_then(fields::parse_limb),
        phobias: sheet
            .weaknesses
            .iter()
            .filter(|w| fields::parse_weakness(w) == Some(Weakness::Phobia))
            .filter_map(|w| fields::weakness_subject(w))
            .map(str::to_owned)
            .collect(),
    }
}

/// What the TFT point check needs from a sheet. Each spell counts one point.
pub(super) fn sheet_points(s: &TftSheet) -> SheetPoints {
    let n = |v: i32| v.max(0) as u32;
    SheetPoints {
        attributes: Attributes {
            st: n(s.st),
            dx: n(s.dx),
            iq: n(s.iq),
            sp: n(s.sp),
        },
        talents: s
            .talents
            .iter()
            .filter_map(|t| fields::parse_talent(t))
            .collect(),
        spell_points: s.spells.len() as u32,
    }
}

/// Every breach of the rules on the sheet, phrased for the player. `house_rules`: the guild
/// plays TFT with Bill Seurer's house rules (`/gm rules tft_house_rules`).
///
/// An NPC is checked by the rules every figure keeps, not by a player character's creation
/// rules (issue 32): the GM builds monsters, hirelings and foes to fit the story.
/// - THIZ NPC: as a character in play (`Stage::InPlay`): no 20-point budget, no minimum of hard
///   and soft points, no parent or mentor skill, no cap of 5 at creation; what weaknesses and
///   quirks forbid and the weakness each Magic Skill brings still hold.
/// - TFT NPC: no starting-figure rules (32 attribute points, each attribute at least 8, no SP
///   at the start); talents still fit in its IQ (and SP), need their IQ and prerequisites, and
///   are not taken twice.
/// - Every TFT figure: a carried weapon that needs more ST than the sheet has is flagged
///   (tft-rules-summary.md, "WEAPONS": the ST column), and so is a two-handed one carried while
///   the sheet lists a shield (the weapon table's two-handed mark: the shield arm is taken); an
///   attack without `weapon:` passes either over (`app::weapons`).
pub(super) fn problems(l: &Loaded, house_rules: bool) -> Vec<String> {
    let npc = l.character.npc;
    let mut found = match &l.sheet {
        Sheet::Thiz(s) => {
            let stage = if npc {
                creation::Stage::InPlay
            } else {
                s.stage()
            };
            let mut found: Vec<String> = creation::validate_at(&draft(s, &l.skills), stage)
                .iter()
                .map(ToString::to_string)
                .collect();
            found.extend(unchosen_quirks(s));
            found.extend(special_problems(s, &l.skills));
            found
        }
        Sheet::Tft(s) if house_rules => tft_problems(s, npc),
        // tft-house-rules.txt, "Skill Points": SP are the house rules'. Without them a sheet
        // has none, and its talents and spells fit in IQ alone.
        Sheet::Tft(s) => {
            let mut found = tft_problems(&TftSheet { sp: 0, ..s.clone() }, npc);
            let house_talents: Vec<&str> = s
                .talents
                .iter()
                .filter_map(|t| fields::parse_talent(t).and_then(|st| st.talent))
                .filter(|t| t.is_house_rule())
                .map(Talent::name)
                .collect();
            // tft-house-rules.txt, "New and Changed Spells": the new ones exist only there.
            let house_spells: Vec<&str> = s
                .spells
                .iter()
                .filter_map(|sp| crate::rules::tft::character::new_spell(sp))
                .filter(|i| i.is_house_rule())
                .map(|i| i.name)
                .collect();
            if !house_spells.is_empty() {
                found.insert(
                    0,
                    format!(
                        "{}: spells of Bill Seurer's house rules, which are off here; take them off, or a GM turns them on with /gm rules name:tft_house_rules value:on",
                        house_spells.join(", ")
                    ),
                );
            }
            if !house_talents.is_empty() {
                found.insert(
                    0,
                    format!(
                        "{}: talents of Bill Seurer's house rules, which are off here; take them off, or a GM turns them on with /gm rules name:tft_house_rules value:on",
                        house_talents.join(", ")
                    ),
                );
            }
            if s.sp > 0 {
                found.insert(
                    0,
                    format!(
                        "SP {}: Skill Points are one of Bill Seurer's house rules, which are off here; set sp to 0, or a GM turns them on with /gm rules name:tft_house_rules value:on",
                        s.sp
                    ),
                );
            }
            found
        }
    };
    if let Sheet::Tft(s) = &l.sheet {
        found.extend(too_heavy(s, &l.items));
        found.extend(two_hands_and_a_shield(s, &l.items));
    }
    found
}

/// The carried two-handed weapons of a TFT figure whose sheet also lists a shield.
fn two_hands_and_a_shield(s: &TftSheet, items: &[Item]) -> Vec<String> {
    let Some(shield) = s.shield.as_deref().filter(|sh| !sh.trim().is_empty()) else {
        return Vec::new();
    };
    items
        .iter()
        .filter(|i| i.kind.eq_ignore_ascii_case("weapon"))
        .filter(|i| gear::weapon(&i.name).is_ok_and(|w| w.hands == gear::Hands::Two))
        .map(|i| {
            format!(
                "{}: two-handed, and the sheet lists a shield ({}), so both cannot be used at once (attacks pass it over unless it is named); take one off with /character gear or /character set",
                escape(&i.name),
                escape(shield)
            )
        })
        .collect()
}

/// The carried weapons a TFT figure lacks the ST to wield.
fn too_heavy(s: &TftSheet, items: &[Item]) -> Vec<String> {
    items
        .iter()
        .filter(|i| i.kind.eq_ignore_ascii_case("weapon"))
        .filter_map(|i| {
            let needs = gear::weapon(&i.name).ok()?.st?;
            (s.st < needs).then(|| {
                format!(
                    "{}: needs ST {needs} and the sheet has ST {}, so it cannot be wielded (attacks pass it over); raise ST or take it off with /character gear",
                    escape(&i.name),
                    s.st
                )
            })
        })
        .collect()
}

fn tft_problems(s: &TftSheet, npc: bool) -> Vec<String> {
    // Decision: a TFT sheet with no experience recorded is a starting character, checked for
    // its 32 attribute points and no SP as well (tft-house-rules.txt, "Skill Points"); once it
    // has earned XP, only the standing point rules apply. An NPC is never a starting
    // character (see `problems`).
    let found = if s.xp == 0 && !npc {
        tft_char::validate_starting(&sheet_points(s))
    } else {
        tft_char::validate_sheet(&sheet_points(s))
    };
    found.iter().map(ToString::to_string).collect()
}

/// A field of the sheet, its value whole: a list longer than a field (60 items, 100 skills)
/// is spread over fields and pages by [`paged`], never cut.
fn field(name: &str, value: impl AsRef<str>, inline: bool) -> Field {
    let value = value.as_ref();
    let value = if value.trim().is_empty() {
        "—".to_owned()
    } else {
        value.to_owned()
    };
    Field {
        name: name.to_owned(),
        value,
        inline,
    }
}

fn joined(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_owned()
    } else {
        items
            .iter()
            .map(|i| escape(i))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn equipment_line(item: &Item) -> String {
    let stats: ItemStats = serde_json::from_str(&item.stats_json).unwrap_or_default();
    let mut notes = vec![item.kind.clone()];
    if stats.attack_bonus != 0 {
        notes.push(format!("{} attack", signed(stats.attack_bonus)));
    }
    if stats.armor_bonus != 0 {
        notes.push(format!("{} armor", signed(stats.armor_bonus)));
    }
    if !stats.locations.is_empty() {
        notes.push(stats.locations.join(", "));
    }
    if stats.missile {
        notes.push("missile".to_owned());
    }
    if stats.thrown {
        notes.push("thrown".to_owned());
    }
    if let Some(q) = &stats.quality {
        notes.push(quality_note(q));
    }
    if stats.broken {
        notes.push("broken".to_owned());
    }
    if stats.dropped {
        notes.push("dropped".to_owned());
    }
    format!("{} ({})", escape(&item.name), escape(&notes.join(", ")))
}

/// A TFT weapon's quality with what it gives (tft-house-rules.txt, "Fine Weapons", "Good
/// Weapons"): "fine+2: +2 damage".
fn quality_note(stored: &str) -> String {
    let Some(q) = gear::Quality::parse(stored) else {
        return stored.to_owned();
    };
    let mut gives = Vec::new();
    if q.dx_bonus() != 0 {
        gives.push(format!("{} DX", signed(q.dx_bonus())));
    }
    if q.damage_bonus() != 0 {
        gives.push(format!("{} damage", signed(q.damage_bonus())));
    }
    if gives.is_empty() {
        q.name().to_owned()
    } else {
        format!("{}: {}", q.name(), gives.join(", "))
    }
}

fn equipment(items: &[Item]) -> String {
    if items.is_empty() {
        return "none".to_owned();
    }
    items
        .iter()
        .map(equipment_line)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The sheet's wounds in the words `/wound` answers with ("Left Arm: Yellow"), one location a
/// line. A stored row that does not parse is an internal error, as it is for `/check`.
fn wounds(rows: &[WoundRow]) -> AppResult<String> {
    if rows.is_empty() {
        return Ok("none".to_owned());
    }
    Ok(record::wound_lines(&record::sheet_from_rows(rows)?).join("\n"))
}

fn thiz_fields(s: &ThizSheet, l: &Loaded) -> AppResult<Vec<Field>> {
    let skills = if l.skills.is_empty() {
        "none yet: /character skill adds one".to_owned()
    } else {
        l.skills
            .iter()
            .map(|s| format!("{} {}", escape(&s.skill), s.rating))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let ids = skill_ids(&l.skills);
    let g = GeneralRatings::from_skills(ids.iter().map(|(s, r)| (s, *r)));
    let mut background = Vec::new();
    for (label, value) in [
        ("Homeland", &s.homeland),
        ("Parents", &s.parents),
        ("Parent or mentor skill", &s.parent_skill),
        ("Missing limb", &s.missing_limb),
        ("Better hand", &s.handedness),
    ] {
        if let Some(v) = value {
            background.push(format!("{label}: {}", escape(v)));
        }
    }
    if s.sessions > 0 {
        background.push(format!("Sessions played: {}", s.sessions));
    }
    let mut out = vec![
        field("Skills", skills, false),
        field(
            "General ratings",
            format!(
                "Physical {} · Mental {} · Magical {}",
                g.physical, g.mental, g.magical
            ),
            false,
        ),
        field("Weaknesses", joined(&s.weaknesses), true),
        field("Quirks", joined(&s.quirks), true),
    ];
    if !s.specials.is_empty() {
        out.push(field("Specials (+3 each)", joined(&s.specials), false));
    }
    if !background.is_empty() {
        out.push(field("Background", background.join("\n"), false));
    }
    out.push(field("Equipment", equipment(&l.items), false));
    out.push(field("Wounds", wounds(&l.wounds)?, false));
    Ok(out)
}

/// What the armor and shield on a sheet do to DX and MA, in the terms `burdened` adds up.
fn worn_encumbrance(
    armor: Option<&gear::Armor>,
    shield: Option<&gear::Shield>,
) -> Vec<Encumbrance> {
    let mut worn = Vec::new();
    if let Some(a) = armor {
        // Every armor row caps MA (`gear::MaEffect`, which holds the decision on fine armor).
        worn.push(Encumbrance {
            dx_penalty: -a.dx,
            ma_penalty: 0,
            ma_limit: Some(a.ma.limit().max(0) as u32),
        });
    }
    if let Some(sh) = shield {
        worn.push(Encumbrance {
            dx_penalty: -sh.dx,
            ..Encumbrance::default()
        });
    }
    worn
}

fn tft_fields(s: &TftSheet, l: &Loaded) -> Vec<Field> {
    let armor = s.armor.as_deref().and_then(|a| gear::armor(a).ok());
    let shield = s.shield.as_deref().and_then(|a| gear::shield(a).ok());
    let base =
        s.ma.unwrap_or_else(|| tft_char::base_ma(s.dx.max(0) as u32) as i32);
    let burden = tft_char::burdened(
        s.dx.max(0) as u32,
        base.max(0) as u32,
        &worn_encumbrance(armor, shield),
    );
    let (ma, adj_dx) = (burden.ma, burden.adj_dx);
    let mut worn = Vec::new();
    if let Some(a) = armor {
        worn.push(format!(
            "{} (stops {}, DX {})",
            a.name,
            a.stops,
            signed(a.dx)
        ));
    }
    if let Some(sh) = shield {
        worn.push(format!(
            "{} (stops {}, DX {})",
            sh.name,
            sh.stops,
            signed(sh.dx)
        ));
    }
    let (hits, fatigue) = l.damage;
    let mut fields = vec![
        field(
            "Attributes",
            format!("ST {} · DX {} · IQ {} · SP {}", s.st, s.dx, s.iq, s.sp),
            false,
        ),
        field("MA", ma.to_string(), true),
        field("adjDX", adj_dx.to_string(), true),
        field("XP", s.xp.to_string(), true),
        field("Talents", joined(&s.talents), false),
        field("Spells", joined(&s.spells), false),
        field(
            "Armor and shield",
            if worn.is_empty() {
                "none".to_owned()
            } else {
                worn.join("\n")
            },
            false,
        ),
        field("Equipment", equipment(&l.items), false),
        field(
            "Hits",
            format!(
                "{hits} taken, {} ST left · fatigue {fatigue}",
                i64::from(s.st) - hits - fatigue
            ),
            false,
        ),
        field(
            "Condition",
            crate::app::tft::shared::condition_text(
                s,
                (i64::from(s.st) - hits - fatigue).clamp(-1000, 1000) as i32,
            ),
            false,
        ),
    ];
    // tft-rules-summary.md, "SECONDARY ATTRIBUTES": the staff's mana, shown only with a staff.
    if s.mana > 0 {
        fields.insert(4, field("Mana", super::fields::mana_text(s), true));
    }
    fields
}

/// The public sheet as an embed; `problems` adds the "Needs fixing" line (owner and GM only).
pub(super) fn sheet_embed(l: &Loaded, problems: Option<usize>) -> AppResult<Embed> {
    let c = &l.character;
    let mut fields = match &l.sheet {
        Sheet::Thiz(s) => thiz_fields(s, l)?,
        Sheet::Tft(s) => tft_fields(s, l),
    };
    let notes = match &l.sheet {
        Sheet::Thiz(s) => s.notes.as_deref(),
        Sheet::Tft(s) => s.notes.as_deref(),
    };
    if let Some(n) = notes {
        fields.push(field("Notes", escape(n), false));
    }
    if let Some(n) = problems.filter(|&n| n > 0) {
        let noun = if n == 1 { "problem" } else { "problems" };
        fields.push(field(
            "Needs fixing",
            format!("{n} {noun} — /character validate"),
            false,
        ));
    }
    let system = match c.system {
        System::Thiz => "THIZ",
        System::Tft => "TFT",
    };
    Ok(Embed {
        title: escape(&c.name),
        description: String::new(),
        tone: Some(Tone::Info),
        fields,
        footer: Some(if c.npc {
            format!("{system} NPC (only GMs see this)")
        } else {
            format!("{system} character")
        }),
    })
}

/// `/character show [name] [page]`.
// Decision (issue 57): a sheet too long for one message (up to 60 items and 100 skills) is paged
// rather than cut: its lists go over several fields, whole lines each, and past one message's
// 6,000 characters the first page ends with "and N more (Equipment 20) … /character show
// name:… page:2", so every item can be read.
pub(super) fn show(ctx: &Ctx<'_>, name: Option<&str>, page: usize) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let loaded = ctx.app.store.read(|conn| {
        let found = match name {
            Some(n) => ctx.find_character(conn, n),
            None => ctx.acting_character(conn, None),
        };
        Ok(found.and_then(|c| load(conn, guild, c)))
    })??;
    let problems = ctx
        .can_act(&loaded.character)
        .then(|| problems(&loaded, tft_house_rules(ctx)).len());
    let shown = crate::app::text::typed_option("name", &loaded.character.name);
    let pages = paged(&sheet_embed(&loaded, problems)?, |p| {
        format!("/character show {shown} page:{p}")
    });
    let reply = Reply::public("").with_embed(pick(pages, page, "The sheet").map_err(user)?);
    // An NPC is a GM's secret: its sheet goes to the GM alone, never to the channel.
    Ok(if loaded.character.npc {
        Reply {
            visibility: crate::app::reply::Visibility::Ephemeral,
            ..reply
        }
    } else {
        reply
    })
}

/// `/character list [page]`: ephemeral, since it marks the caller's own characters. A list too
/// long for one message is paged, as a sheet is.
pub(super) fn list(ctx: &Ctx<'_>, page: usize) -> AppResult<Reply> {
    let (all, deleted) = ctx.app.store.read(|conn| {
        let deleted = if ctx.is_gm() {
            characters::deleted(conn, ctx.caller.guild)?
        } else {
            Vec::new()
        };
        Ok((characters::all(conn, ctx.caller.guild)?, deleted))
    })?;
    let lines: Vec<String> = all
        .iter()
        .filter(|c| ctx.can_see(c))
        .map(|c| {
            let system = match c.system {
                System::Thiz => "THIZ",
                System::Tft => "TFT",
            };
            let mark = if c.npc {
                " (NPC)"
            } else if c.owner_id == ctx.caller.user {
                " (yours)"
            } else {
                ""
            };
            format!("{} · {system}{mark}", escape(&c.name))
        })
        .collect();
    // A GM sees the deleted characters still kept, to restore one.
    let kept: Vec<String> = deleted
        .iter()
        .map(|d| {
            let days = (d.deleted_at + characters::KEPT_FOR_SECS - crate::store::now())
                .max(0)
                .div_euclid(86_400);
            format!(
                "{} · deleted by <@{}> · kept {}",
                escape(&d.character.name),
                d.deleted_by.0,
                crate::app::text::count(u64::try_from(days).unwrap_or(0), "more day", "more days")
            )
        })
        .collect();
    if lines.is_empty() && kept.is_empty() {
        return Ok(Reply::ephemeral(
            "No characters here yet. Make one with /character create name:… system:thiz (or tft).",
        ));
    }
    let embed = Embed {
        title: "Characters".into(),
        description: String::new(),
        tone: Some(Tone::Info),
        fields: line_fields("Deleted (a GM can /character restore them)", &kept, false),
        footer: Some(format!("{} in all", lines.len())),
    };
    let embed = if lines.is_empty() {
        Embed {
            description: "None here now.".to_owned(),
            ..embed
        }
    } else {
        list_embed(embed, &lines, "Characters (continued)")
    };
    let pages = paged(&embed, |p| format!("/character list page:{p}"));
    Ok(Reply::ephemeral("").with_embed(pick(pages, page, "The list").map_err(user)?))
}

/// Whether the guild plays TFT with the house rules (`/gm rules tft_house_rules`).
fn tft_house_rules(ctx: &Ctx<'_>) -> bool {
    crate::app::house::house_rule(&ctx.settings, "tft_house_rules")
}

/// `/character validate [name]`: owner or GM.
pub(super) fn validate(ctx: &Ctx<'_>, name: Option<&str>) -> AppResult<Reply> {
    let guild = ctx.caller.guild;
    let loaded = ctx.app.store.read(|conn| {
        Ok(ctx
            .acting_character(conn, name)
            .and_then(|c| load(conn, guild, c)))
    })??;
    let found = problems(&loaded, tft_house_rules(ctx));
    let name = escape(&loaded.character.name);
    let embed = if found.is_empty() {
        Embed {
            title: format!("{name}: no problems"),
            description: "The sheet follows the rules.".into(),
            tone: Some(Tone::Green),
            ..Embed::default()
        }
    } else {
        let list = found
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{}. {p}", i + 1))
            .collect::<Vec<_>>()
            .join("\n");
        let noun = if found.len() == 1 {
            "problem"
        } else {
            "problems"
        };
        Embed {
            title: format!("{name}: {} {noun} to fix", found.len()),
            description: truncate(&list, 4096),
            tone: Some(Tone::Yellow),
            ..Embed::default()
        }
    };
    Ok(Reply::ephemeral("").with_embed(embed))
}
