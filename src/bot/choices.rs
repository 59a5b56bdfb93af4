//! Fixed menus as Discord choices, so a bad value never reaches `app` (STYLE §3). Each choice's
//! name is the value `app` parses, the same word the console types; a test in `commands` parses
//! every one of them through `app`. Menus longer than Discord's 25 choices (TFT jobs) stay text.

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
pub enum System {
    #[name = "thiz"]
    Thiz,
    #[name = "tft"]
    Tft,
}

/// How `/tftkit staff` refills a staff's mana.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum StaffRefill {
    #[name = "fatigue"]
    Fatigue,
    #[name = "contemplation"]
    Contemplation,
}

/// Which of the GM settings `/gm setup` clears.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum SetupClear {
    #[name = "gm_role"]
    GmRole,
    #[name = "gm_channel"]
    GmChannel,
    #[name = "both"]
    Both,
}

/// What a luck point is spent on.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum LuckKind {
    #[name = "reroll"]
    Reroll,
    #[name = "toughness"]
    Toughness,
    #[name = "wound"]
    Wound,
    #[name = "stunt"]
    Stunt,
    #[name = "berserk"]
    Berserk,
    #[name = "rouse"]
    Rouse,
}

/// Where a TFT blow or HTH attempt comes from, relative to the target's facing.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Facing {
    #[name = "front"]
    Front,
    #[name = "side"]
    Side,
    #[name = "rear"]
    Rear,
}

/// A TFT charge, by the attacker or against one.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Charge {
    #[name = "none"]
    None,
    #[name = "charging"]
    Charging,
    #[name = "off-centre"]
    OffCentre,
    #[name = "receiving"]
    Receiving,
    #[name = "receiving-rider"]
    ReceivingRider,
}

/// Who has the higher Unarmed Combat talent in a TFT HTH entry.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum HigherUc {
    #[name = "attacker"]
    Attacker,
    #[name = "defender"]
    Defender,
}

/// Who tends a dying TFT figure.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Helper {
    #[name = "friend"]
    Friend,
    #[name = "first-aid"]
    FirstAid,
    #[name = "physicker"]
    Physicker,
    #[name = "master-physicker"]
    MasterPhysicker,
}

/// Adding an item to a sheet, or taking it off.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum GearAction {
    #[name = "add"]
    Add,
    #[name = "remove"]
    Remove,
}

/// What kind of equipment row an item is.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum ItemKind {
    #[name = "weapon"]
    Weapon,
    #[name = "armor"]
    Armor,
    #[name = "shield"]
    Shield,
    #[name = "item"]
    Item,
}

/// Burst fire (THIZ `/attack burst`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Burst {
    #[name = "three-round"]
    ThreeRound,
    #[name = "full-auto"]
    FullAuto,
}

/// Who cannot see (THIZ `/attack sight`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Sight {
    #[name = "night"]
    Night,
    #[name = "attacker-blind"]
    AttackerBlind,
    #[name = "target-blind"]
    TargetBlind,
    #[name = "both-blind"]
    BothBlind,
}

/// What a held grapple is used for (THIZ `/maneuver grapple then`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum GrappleThen {
    #[name = "hold"]
    Hold,
    #[name = "throw"]
    Throw,
    #[name = "pin"]
    Pin,
}

/// How a held character gets out (THIZ `/maneuver escape how`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum EscapeHow {
    #[name = "reverse"]
    Reverse,
    #[name = "break"]
    Break,
}

/// The hand a one-handed THIZ skill is done with.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Hand {
    #[name = "right"]
    Right,
    #[name = "left"]
    Left,
}

/// What a THIZ missile weapon shoots (`/character gear missile_kind`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum MissileKind {
    #[name = "low"]
    Low,
    #[name = "piercing"]
    Piercing,
    #[name = "high"]
    High,
    #[name = "armour-piercing"]
    ArmourPiercing,
}

/// How well a TFT weapon was made (`/character gear quality`; tft-house-rules.txt, "Fine
/// Weapons", "Good Weapons"). The names are the ones `rules::tft::gear::Quality` reads.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum WeaponQuality {
    #[name = "plain"]
    Plain,
    #[name = "good"]
    Good,
    #[name = "fine"]
    Fine,
    #[name = "fine+1"]
    FinePlusOne,
    #[name = "fine+2"]
    FinePlusTwo,
    #[name = "fine-dx+1"]
    FineDxPlusOne,
    #[name = "fine-dx+2"]
    FineDxPlusTwo,
}

/// What a Magic Skill does to another character (`/magic target use`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum MagicUse {
    #[name = "mentalism"]
    Mentalism,
    #[name = "reiki_strike"]
    ReikiStrike,
    #[name = "reiki_heal"]
    ReikiHeal,
    #[name = "psychokinesis"]
    Psychokinesis,
}

/// A THIZ wound colour.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum WoundLevel {
    #[name = "green"]
    Green,
    #[name = "yellow"]
    Yellow,
    #[name = "red"]
    Red,
    #[name = "black"]
    Black,
}

/// The `/gm rules` switches (`app::house::HOUSE_RULES`; a test keeps the two lists equal).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum HouseRule {
    #[name = "tft_house_rules"]
    HouseRules,
    #[name = "tft_four_dice_specials"]
    FourDiceSpecials,
    #[name = "tft_generalize_beyond_four"]
    GeneralizeBeyondFour,
    #[name = "players_strike_anywhere"]
    PlayersStrikeAnywhere,
    #[name = "sheets_lock_when_approved"]
    SheetsLockWhenApproved,
    #[name = "npc_numbers_open"]
    NpcNumbersOpen,
    #[name = "turn_pings"]
    TurnPings,
}

/// What a falling THIZ character lands on.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Surface {
    #[name = "unyielding"]
    Unyielding,
    #[name = "yielding"]
    Yielding,
    #[name = "water"]
    Water,
}

/// Why a THIZ character checks to stay afloat.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum WaterSituation {
    #[name = "sudden_fall"]
    SuddenFall,
    #[name = "dive"]
    Dive,
    #[name = "armour"]
    Armour,
    #[name = "start_swim"]
    StartSwim,
    #[name = "start_turn"]
    StartTurn,
    #[name = "resurface"]
    Resurface,
}

/// The unit a poison's duration is counted in.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum TimeUnit {
    #[name = "turns"]
    Turns,
    #[name = "minutes"]
    Minutes,
    #[name = "hours"]
    Hours,
    #[name = "days"]
    Days,
}

/// How a Magic Skill is studied.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum StudyPace {
    #[name = "full_time"]
    FullTime,
    #[name = "on_the_road"]
    OnTheRoad,
}

/// What a traveller carries or pulls (`/move travel load`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum TravelLoad {
    #[name = "unladen"]
    Unladen,
    #[name = "rider"]
    Rider,
    #[name = "vehicle"]
    Vehicle,
}

/// The country crossed (`/move travel terrain`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Terrain {
    #[name = "open"]
    Open,
    #[name = "desert"]
    Desert,
    #[name = "mountains"]
    Mountains,
}

/// A boat instead of the march (`/move travel boat`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Boat {
    #[name = "rowed"]
    Rowed,
    #[name = "sailing"]
    Sailing,
    #[name = "ship"]
    Ship,
    #[name = "powered"]
    Powered,
}

/// Day or night (`/move travel navigate`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum TimeOfDay {
    #[name = "day"]
    Day,
    #[name = "night"]
    Night,
}

/// A vehicle's speed category (`/move pilot pace`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Pace {
    #[name = "slow"]
    Slow,
    #[name = "cruising"]
    Cruising,
    #[name = "fast"]
    Fast,
    #[name = "flat_out"]
    FlatOut,
}

/// How far the vehicle table is scaled (`scale`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum VehicleScale {
    #[name = "terrestrial"]
    Terrestrial,
    #[name = "aircraft"]
    Aircraft,
    #[name = "spacecraft"]
    Spacecraft,
}

/// What a chase's leader does with the gap.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum GapChange {
    #[name = "close"]
    Close,
    #[name = "widen"]
    Widen,
}

/// How two vehicles meet (`/move near approach`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Approach {
    #[name = "crossing"]
    Crossing,
    #[name = "head_on"]
    HeadOn,
}

/// What hit what (`/move collide kind`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum CollisionKind {
    #[name = "crossing"]
    Crossing,
    #[name = "rear_end"]
    RearEnd,
    #[name = "head_on"]
    HeadOn,
    #[name = "pedestrian"]
    Pedestrian,
    #[name = "fixture"]
    Fixture,
}

/// What is studied with a tutor (`/advance train study`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Study {
    #[name = "magic_skill"]
    MagicSkill,
    #[name = "magic_special"]
    MagicSpecial,
    #[name = "special"]
    Special,
}

/// A TFT common check, by what the figure tries (`app::tft` reads the names).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum CommonCheck {
    #[name = "spot-ambush"]
    SpotAmbush,
    #[name = "climb-wall"]
    ClimbWall,
    #[name = "climb-rope"]
    ClimbRope,
    #[name = "force-door"]
    ForceDoor,
    #[name = "notice"]
    Notice,
    #[name = "pick-pocket"]
    PickPocket,
    #[name = "recognize-spell"]
    RecognizeSpell,
    #[name = "run"]
    Run,
    #[name = "draw-dagger"]
    DrawDagger,
    #[name = "leave-hth"]
    LeaveHth,
    #[name = "disbelieve"]
    Disbelieve,
}

/// How the target of a TFT attack parries the blow.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Parry {
    #[name = "none"]
    None,
    #[name = "main-gauche"]
    MainGauche,
    #[name = "second-weapon"]
    SecondWeapon,
    #[name = "shield"]
    Shield,
    #[name = "full"]
    Full,
}

/// What a TFT attacker also does this turn: parries or defends while it attacks.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Stance {
    #[name = "parry-main-gauche"]
    ParryMainGauche,
    #[name = "parry-weapon"]
    ParryWeapon,
    #[name = "parry-shield"]
    ParryShield,
    #[name = "defend-weapon"]
    DefendWeapon,
    #[name = "defend-shield"]
    DefendShield,
}

/// A TFT multiple-actions meta-option: actions taken, with or without the movement boost.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum TakeActions {
    #[name = "1"]
    One,
    #[name = "1+move"]
    OneMove,
    #[name = "2"]
    Two,
    #[name = "2+move"]
    TwoMove,
    #[name = "3"]
    Three,
}

/// What a TFT figure does about hand-to-hand combat.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum HthAction {
    #[name = "enter"]
    Enter,
    #[name = "leave"]
    Leave,
    #[name = "dagger"]
    Dagger,
}

/// Where a TFT called shot aims.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum CalledArea {
    #[name = "head"]
    Head,
    #[name = "hand"]
    Hand,
    #[name = "shield-arm"]
    ShieldArm,
    #[name = "leg"]
    Leg,
    #[name = "wing"]
    Wing,
}

/// A TFT spell type, for its distance adjustment.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum SpellKind {
    #[name = "missile"]
    Missile,
    #[name = "thrown"]
    Thrown,
    #[name = "creation"]
    Creation,
    #[name = "special"]
    Special,
}

/// Where a figure ended its move beside a TFT Wall of Fire.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum WallEnded {
    #[name = "in"]
    In,
    #[name = "next"]
    Next,
    #[name = "away"]
    Away,
}

/// How hard a TFT mount is ridden under its load.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum MountPace {
    #[name = "chart"]
    Chart,
    #[name = "run"]
    Run,
    #[name = "pushed"]
    Pushed,
}

/// A TFT action that takes a known time.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum TimedAction {
    #[name = "search"]
    Search,
    #[name = "remove-trap"]
    RemoveTrap,
    #[name = "spring-trap"]
    SpringTrap,
    #[name = "molotail"]
    Molotail,
    #[name = "backpack-off"]
    BackpackOff,
    #[name = "from-backpack"]
    FromBackpack,
    #[name = "torch"]
    Torch,
    #[name = "kill-helpless"]
    KillHelpless,
    #[name = "speak"]
    Speak,
}
