//! TFT campaign tables: jobs and a week of work, lifestyles, NPC reactions, the time actions
//! take, and the prices of magic items and miscellaneous equipment.
//!
//! Owns the house rules' "Jobs" chapter as data and [`run_job_week`], which rolls a whole week of
//! work at once (tft-house-rules.txt, "Jobs", "Lifestyles", "New Costs of Magic Items",
//! "Miscellaneous Equipment"; tft-rules-summary.md, "NPC REACTIONS", "TIME REQUIRED").
//! Must never: store anything, format replies, or read a sheet — the worker comes in as numbers
//! and talents, and randomness through a [`crate::rules::dice::DieSource`].

mod goods;
mod jobs;
mod reaction;
mod thieves;
mod week;

pub use goods::{
    ClothingClass, Equipment, MAGIC_ITEM_COSTS, MISC_EQUIPMENT, MagicItemCost, magic_item_price,
};
pub use jobs::{
    FindRoll, Job, JobDamage, JobFamily, LIFESTYLES, Lifestyle, LifestyleCost, MERCENARY_JOBS,
    MISC_JOBS, OFFICER_RANKS, OfficerRank, PayRule, RankModification, Risk, WIZARD_RANKS, Weeks,
    XP_BONUS_TABLE, XpBonusRow, job_by_name, lifestyle_cost, rank_modification, xp_bonus,
    xp_bonus_halves,
};
pub use reaction::{
    ACTION_ROUNDS, MAX_REACTION_MODIFIER, REACTION_TABLE, ROUNDS_PER_MINUTE, Reaction,
    ReactionError, ReactionOutcome, TimedAction, action_rounds, reaction_for, reaction_odds,
    reaction_roll,
};
pub use thieves::{
    THIEF_TALENT_FACTORS, ThiefAdjustment, ThiefTalentFactor, adjusted_disaster,
    limited_pay_increase, ma_quarters, thief_adjustment,
};
pub use week::{
    Disaster, JobError, JobRequirement, JobWeek, JobWeekOptions, MercenaryOptions, Mount,
    PayBreakdown, RiskOdds, ThiefRolls, check_requirements, find_roll, provided_lifestyle,
    risk_odds, run_job_week, thief_rolls, weekly_pay, wizard_combat_talents,
};
