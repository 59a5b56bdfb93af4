//! `/tftref ski [character] [multiple] [jump]`: a skier's MA on level snow and uphill, its DX in
//! combat on skis, and going downhill at a multiple of MA the roll to stay up, the damage of a
//! fall and a Master Skier's jump. The skier's talent and MA come from the sheet. A look-up:
//! nothing is rolled or written.

use super::shared::{field, has_talent, tft_sheet};
use crate::app::invocation::{Invocation, Opts};
use crate::app::reply::{Embed, Reply, Tone};
use crate::app::text::escape;
use crate::app::text::signed;
use crate::app::{AppResult, Ctx};
use crate::rules::tft::character::{
    SKI_UNTRAINED_COMBAT_DICE, Skier, Talent, TalentRoll, base_ma, downhill_roll, level_snow_ma,
    ski_combat_dx, ski_fall_damage, ski_jump_roll, uphill_ma,
};

/// The highest multiple of MA accepted.
const MAX_MULTIPLE: i64 = 20;

/// A parsed `/tftref ski`.
#[derive(Debug, Clone)]
pub struct Ski {
    character: Option<String>,
    multiple: Option<u32>,
    jump: bool,
}

impl Ski {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["character", "multiple", "jump"])?;
        Ok(Self {
            character: o.text("character").map(str::to_owned),
            multiple: o.int("multiple", 1, MAX_MULTIPLE)?.map(|n| n as u32),
            jump: o.flag("jump")?,
        })
    }

    pub fn run(self, ctx: &Ctx<'_>) -> AppResult<Reply> {
        let c = ctx
            .app
            .store
            .read(|conn| Ok(ctx.acting_character(conn, self.character.as_deref())))??;
        let sheet = tft_sheet(&c)?;
        let skier = if has_talent(&sheet, Talent::MasterSkier) {
            Skier::MasterSkier
        } else if has_talent(&sheet, Talent::Skiing) {
            Skier::Skiing
        } else {
            Skier::Untrained
        };
        let ma = sheet
            .ma
            .map_or_else(|| base_ma(sheet.dx.max(0) as u32), |m| m.max(0) as u32);
        let mut fields = vec![
            field(
                "Level snow",
                format!("MA {}", level_snow_ma(skier, ma)),
                true,
            ),
            field("Uphill", format!("MA {}", uphill_ma(skier, ma)), true),
            field("Combat", combat_text(skier), false),
        ];
        if let Some(m) = self.multiple {
            let roll = downhill_roll(skier, m).map_or_else(|| "none needed".to_owned(), roll_text);
            fields.push(field(&format!("Downhill at {m}× MA"), roll, false));
            let fall = ski_fall_damage(skier, m, self.jump)
                .map_or_else(|| "no damage".to_owned(), |d| d.to_string());
            fields.push(field("A fall", fall, true));
            if self.jump {
                let jump = ski_jump_roll(skier, m).map_or_else(
                    || "only a Master Skier jumps, at double MA or more".to_owned(),
                    roll_text,
                );
                fields.push(field("Ski jump", jump, true));
            }
        }
        let who = match skier {
            Skier::Untrained => "no Skiing talent",
            Skier::Skiing => "Skiing",
            Skier::MasterSkier => "Master Skier",
        };
        Ok(Reply::ephemeral("").with_embed(Embed {
            title: format!("{} on skis", escape(&c.name)),
            description: format!("{who}, MA {ma} on foot"),
            tone: Some(Tone::Grey),
            fields,
            footer: None,
        }))
    }
}

/// tft-house-rules.txt, "Skiing": the DX of a blow struck on skis, and the untrained skier's
/// roll to stay up.
fn combat_text(skier: Skier) -> String {
    let dx = format!(
        "{} DX hand to hand (none for missile or thrown weapons, or spells)",
        signed(ski_combat_dx(skier))
    );
    match skier {
        Skier::Untrained => {
            format!("{dx}; {SKI_UNTRAINED_COMBAT_DICE}d against adjDX every turn to stay up")
        }
        Skier::Skiing | Skier::MasterSkier => dx,
    }
}

fn roll_text(r: TalentRoll) -> String {
    if r.modifier == 0 {
        format!("{}d against adjDX", r.dice)
    } else {
        format!("{}d against adjDX {}", r.dice, r.modifier)
    }
}
