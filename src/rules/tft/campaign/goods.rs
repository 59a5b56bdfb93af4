//! Prices as data: the house rules' magic items and miscellaneous equipment.
//!
//! Source: tft-house-rules.txt, "New Costs of Magic Items" and "Miscellaneous Equipment". Weights
//! are in tenths of a kilogram so the table stays exact. Never rolls.

/// A magic item's price and making time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MagicItemCost {
    pub name: &'static str,
    /// Dollars, or dollars per point for rods.
    pub cost: u32,
    pub per_point: bool,
    /// The table's "B" note. Decision: the text never says what it means; it is kept as a flag.
    pub b_note: bool,
    /// Weeks to make, where given.
    pub weeks: Option<u32>,
}

const fn item(
    name: &'static str,
    cost: u32,
    per_point: bool,
    b_note: bool,
    weeks: Option<u32>,
) -> MagicItemCost {
    MagicItemCost {
        name,
        cost,
        per_point,
        b_note,
        weeks,
    }
}

/// tft-house-rules.txt, "New Costs of Magic Items".
pub const MAGIC_ITEM_COSTS: [MagicItemCost; 10] = [
    item("Drop Weapon", 1000, false, false, Some(1)),
    item("Sleep", 3000, false, true, Some(2)),
    item("Stone Flesh", 5000, false, true, Some(6)),
    item("Spell Shield", 8000, false, false, Some(6)),
    item("Iron Flesh", 8000, false, true, Some(6)),
    item("Magic Fist rod", 450, true, true, Some(2)),
    item("Fireball rod", 600, true, true, Some(3)),
    item("Lightning rod", 750, true, true, Some(5)),
    item("Wizard's Wrath rod", 900, true, true, Some(8)),
    item("Speed Movement", 2500, false, true, None),
];

/// The price of a magic item with `points` points (rods are priced per point; others ignore it).
pub fn magic_item_price(item: &MagicItemCost, points: u32) -> u32 {
    if item.per_point {
        item.cost * points
    } else {
        item.cost
    }
}

/// Social class of clothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClothingClass {
    Lower,
    Middle,
    Upper,
}

/// One piece of equipment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Equipment {
    pub name: &'static str,
    pub class: Option<ClothingClass>,
    pub cost: u32,
    pub weight_tenths_kg: u32,
    /// Coldest temperature it is rated for, in °C.
    pub rated_to_c: Option<i32>,
    /// DX penalty while worn.
    pub dx_penalty: u32,
    /// Hits it stops.
    pub stops: u32,
}

const fn eq(
    name: &'static str,
    class: Option<ClothingClass>,
    cost: u32,
    weight_tenths_kg: u32,
    rated_to_c: Option<i32>,
    dx_penalty: u32,
    stops: u32,
) -> Equipment {
    Equipment {
        name,
        class,
        cost,
        weight_tenths_kg,
        rated_to_c,
        dx_penalty,
        stops,
    }
}

use ClothingClass::{Lower, Middle, Upper};

// tft-house-rules.txt, "Miscellaneous Equipment". Skis need ski boots; snowshoes need no special
// shoes; the spy glasses magnify 3 and 4 times. Decision: the plain winter clothing rows are the
// lower-class ones (the next rows say "as above, but middle-class").
/// The house rules' miscellaneous equipment.
pub const MISC_EQUIPMENT: [Equipment; 14] = [
    eq("Skis (pair)", None, 100, 30, None, 0, 0),
    eq("Ski boots (pair)", None, 30, 20, None, 0, 0),
    eq("Ski poles (pair)", None, 6, 5, None, 0, 0),
    eq("Snowshoes (pair)", None, 30, 30, None, 0, 0),
    eq("Light wool blanket", None, 20, 15, Some(0), 4, 0),
    eq("Heavy wool blanket", None, 40, 30, Some(-20), 6, 0),
    eq("Light winter clothing", Some(Lower), 15, 30, Some(0), 2, 1),
    eq("Light winter clothing", Some(Middle), 50, 30, Some(0), 2, 1),
    eq("Light winter clothing", Some(Upper), 200, 30, Some(0), 2, 1),
    eq(
        "Heavy winter clothing",
        Some(Lower),
        25,
        30,
        Some(-20),
        4,
        1,
    ),
    eq(
        "Heavy winter clothing",
        Some(Middle),
        90,
        30,
        Some(-20),
        4,
        1,
    ),
    eq(
        "Heavy winter clothing",
        Some(Upper),
        300,
        30,
        Some(-20),
        4,
        1,
    ),
    eq("Spy glass", None, 300, 5, None, 0, 0),
    eq("Good spy glass", None, 800, 5, None, 0, 0),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_item_prices() {
        // tft-house-rules.txt, "New Costs of Magic Items".
        let fireball = MAGIC_ITEM_COSTS
            .iter()
            .find(|i| i.name == "Fireball rod")
            .unwrap();
        assert_eq!(magic_item_price(fireball, 3), 1800);
        let sleep = MAGIC_ITEM_COSTS.iter().find(|i| i.name == "Sleep").unwrap();
        assert_eq!(magic_item_price(sleep, 3), 3000);
        assert!(MAGIC_ITEM_COSTS.iter().all(|i| i.cost > 0));
    }

    #[test]
    fn equipment_rows() {
        // tft-house-rules.txt, "Miscellaneous Equipment": classes cost more, same protection.
        let winter: Vec<_> = MISC_EQUIPMENT
            .iter()
            .filter(|e| e.name == "Heavy winter clothing")
            .collect();
        assert_eq!(
            winter.iter().map(|e| e.cost).collect::<Vec<_>>(),
            [25, 90, 300]
        );
        assert!(
            winter
                .iter()
                .all(|e| e.dx_penalty == 4 && e.stops == 1 && e.rated_to_c == Some(-20))
        );
        let blanket = MISC_EQUIPMENT[4];
        assert_eq!(
            (blanket.cost, blanket.weight_tenths_kg, blanket.dx_penalty),
            (20, 15, 4)
        );
    }
}
