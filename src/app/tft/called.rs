//! `/tftref called area [hits]`: a called shot at the head, weapon hand, shield arm, leg or wing —
//! the adjDX for aiming there and, given the hits that got through, what they do. A table look-up:
//! nothing is rolled or written (roll the blow with `/tft attack`'s modifier).

use super::shared::{field, menu};
use crate::app::AppResult;
use crate::app::invocation::{Invocation, Opts};
use crate::app::reply::{Embed, Reply, Tone};
use crate::app::text::signed;
use crate::rules::tft::injury::{CalledArea, CalledEffect, called_shot_effect};

/// The most hits accepted.
const MAX_HITS: i64 = 1000;

const AREAS: [(&str, CalledArea); 5] = [
    ("head", CalledArea::Head),
    ("hand", CalledArea::WeaponHand),
    ("shield-arm", CalledArea::ShieldArm),
    ("leg", CalledArea::Leg),
    ("wing", CalledArea::Wing),
];

/// A parsed `/tftref called`.
#[derive(Debug, Clone)]
pub struct Called {
    area: CalledArea,
    hits: Option<i32>,
}

impl Called {
    pub fn parse(inv: &Invocation) -> AppResult<Self> {
        let o = Opts::new(inv, &["area", "hits"])?;
        Ok(Self {
            area: menu("area", o.required("area")?, &AREAS)?,
            hits: o.int("hits", 0, MAX_HITS)?.map(|n| n as i32),
        })
    }

    pub fn run(self) -> Reply {
        let name = AREAS
            .iter()
            .find(|(_, a)| *a == self.area)
            .map_or("area", |(n, _)| *n);
        let mut fields = vec![field(
            "Aim",
            format!("{} adjDX", signed(self.area.dx_adjust())),
            true,
        )];
        if let Some(hits) = self.hits {
            fields.push(field(
                "Effect",
                format!(
                    "{hits} hits: {}",
                    effect_text(called_shot_effect(self.area, hits))
                ),
                false,
            ));
        }
        Reply::ephemeral("").with_embed(Embed {
            title: format!("A called shot at the {name}"),
            description: "Give the aim as the attack's modifier; the hits count as usual too."
                .into(),
            tone: Some(Tone::Grey),
            fields,
            footer: None,
        })
    }
}

fn effect_text(e: CalledEffect) -> &'static str {
    match e {
        CalledEffect::None => "nothing beyond the hits",
        CalledEffect::KnockedOut => "knocked out",
        CalledEffect::DropsWeapon => "drops the weapon",
        CalledEffect::HandUselessUntilTreated => {
            "drops the weapon; the hand is useless until treated"
        }
        CalledEffect::HandDisabled => "drops the weapon; the hand is disabled",
        CalledEffect::LosesShield => "loses the shield",
        CalledEffect::ArmUselessUntilHealed => {
            "the arm is useless until healed; the shield costs 2 adjDX until dropped"
        }
        CalledEffect::ArmDisabled => "the shield arm is disabled",
        CalledEffect::Kneels => "down to kneeling for at least two turns",
        CalledEffect::LegUseless => {
            "the leg is useless until treated: MA 0 in combat, 3 on a crutch"
        }
        CalledEffect::Grounded => "cannot fly for the rest of the combat",
        CalledEffect::WingUseless => "the wing is useless until treated",
    }
}
