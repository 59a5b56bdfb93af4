//! The seven body sections a THIZ character can be hit and wounded in.
//!
//! Source: THIZ rulebook, chapter 6 "Damage" (seven sections) and the missile hit-location table
//! ("Attack"); the table's overlap at 90 is decided as 81..90 Right Arm, 91..100 Head
//! (rules/README.md, "Missile hit locations").

use std::fmt;

/// A body section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Location {
    Head,
    Chest,
    Gut,
    RightArm,
    LeftArm,
    RightLeg,
    LeftLeg,
}

impl Location {
    pub const ALL: [Location; 7] = [
        Location::Head,
        Location::Chest,
        Location::Gut,
        Location::RightArm,
        Location::LeftArm,
        Location::RightLeg,
        Location::LeftLeg,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Location::Head => "Head",
            Location::Chest => "Chest",
            Location::Gut => "Gut",
            Location::RightArm => "Right Arm",
            Location::LeftArm => "Left Arm",
            Location::RightLeg => "Right Leg",
            Location::LeftLeg => "Left Leg",
        }
    }

    /// Head, Chest or Gut: the sections where a worse-than-Green wound defeats a mook and a Black
    /// wound incapacitates.
    pub fn is_vital(self) -> bool {
        matches!(self, Location::Head | Location::Chest | Location::Gut)
    }

    pub fn is_arm(self) -> bool {
        matches!(self, Location::RightArm | Location::LeftArm)
    }

    pub fn is_leg(self) -> bool {
        matches!(self, Location::RightLeg | Location::LeftLeg)
    }

    /// Parses a name as players type it: "head", "right arm", "r-arm", "ra", "leftleg"…
    pub fn parse(text: &str) -> Option<Location> {
        let key: String = text
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        Some(match key.as_str() {
            "head" | "h" => Location::Head,
            "chest" | "c" | "torso" => Location::Chest,
            "gut" | "g" | "belly" | "abdomen" => Location::Gut,
            "rightarm" | "rarm" | "ra" => Location::RightArm,
            "leftarm" | "larm" | "la" => Location::LeftArm,
            "rightleg" | "rleg" | "rl" => Location::RightLeg,
            "leftleg" | "lleg" | "ll" => Location::LeftLeg,
            _ => return None,
        })
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for loc in Location::ALL {
            assert_eq!(Location::parse(loc.name()), Some(loc));
        }
        assert_eq!(Location::parse("R-Arm"), Some(Location::RightArm));
        assert_eq!(Location::parse("tail"), None);
        assert_eq!(Location::parse(""), None);
    }

    #[test]
    fn vital_sections_are_head_chest_gut() {
        let vital: Vec<_> = Location::ALL.into_iter().filter(|l| l.is_vital()).collect();
        assert_eq!(vital, [Location::Head, Location::Chest, Location::Gut]);
    }
}
