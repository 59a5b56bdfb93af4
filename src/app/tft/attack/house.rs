//! `/tft attack` in a guild that plays without Bill Seurer's house rules (`/gm rules
//! tft_house_rules` off, issue 31): what only the house rules allow is refused, naming the
//! switch, and the rest falls back to tft-rules-summary.md. The switch is read in
//! `Attack::run_turn`; the numbers stay `rules::tft`'s.

use super::{Attack, Chosen};
use crate::app::AppResult;
use crate::rules::tft::attack::Adjustment;
use crate::rules::tft::damage::Charge;
use crate::rules::tft::gear::{self, Quality};

impl Attack {
    /// With the house rules off: refuses what only they allow (their weapons, the target's
    /// parries and shield wall, worn armor, good shots, widening, earlier rolls), and strikes
    /// with a fine or good weapon as with a plain one (tft-house-rules.txt, "Fine Weapons",
    /// "Good Weapons"; the summary has no weapon quality).
    pub(super) fn without_house_rules(&self, mut chosen: Chosen) -> AppResult<Chosen> {
        if self.house_rules {
            return Ok(chosen);
        }
        let refused = if let Some(w) = chosen.weapon.filter(|w| w.house_rule) {
            Some(format!("The {}", w.name))
        } else if self.parry.is_house_rule() {
            Some("The target's parry (other than with a main-gauche)".to_owned())
        } else if self.shield_wall > 0 {
            Some("A shield wall".to_owned())
        } else if self.extras.armor_wear != gear::Wear::Sound {
            Some("Armor wear".to_owned())
        } else if self.extras.good_shot {
            Some("A good bow shot".to_owned())
        } else if self.extras.widen > 0 {
            Some("Widening the double/triple range by waiting".to_owned())
        } else if self.prior > 0 {
            Some("The -1 per earlier roll this turn (prior)".to_owned())
        } else if matches!(
            self.charge,
            Charge::ReceivingRider | Charge::ChargingOffCentre
        ) {
            Some("A lance or pike charge".to_owned())
        } else {
            None
        };
        if let Some(what) = refused {
            return Err(crate::app::tft::shared::house_rule_off(&what));
        }
        if chosen.quality != Quality::Plain {
            chosen.quality = Quality::Plain;
            let why = "its quality counts only under the house rules (/gm rules tft_house_rules)";
            chosen.note = Some(match chosen.note {
                Some(n) => format!("{n}; {why}"),
                None => why.to_owned(),
            });
        }
        Ok(chosen)
    }

    /// With the house rules off: drops the encounter's count of earlier shots (a house rule the
    /// player did not ask for) and refuses any other adjustment only the house rules have.
    pub(super) fn plain_adjustments(
        &self,
        adjustments: Vec<Adjustment>,
    ) -> AppResult<Vec<Adjustment>> {
        if self.house_rules {
            return Ok(adjustments);
        }
        let kept: Vec<Adjustment> = adjustments
            .into_iter()
            .filter(|a| !matches!(a, Adjustment::EarlierRollsThisTurn(_)))
            .collect();
        match kept.iter().find_map(Adjustment::house_rule) {
            Some(rule) => Err(crate::app::tft::shared::house_rule_off(rule)),
            None => Ok(kept),
        }
    }
}
