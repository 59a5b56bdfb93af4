//! Which suggestions an option with autocomplete offers in `referee serve`: the same callback
//! the gateway's command definition names for it (`#[autocomplete = "autocomplete::…"]`), as an
//! [`autocomplete::Kind`](crate::bot::autocomplete::Kind). poise keeps those callbacks where only
//! a gateway context can call them, so the pairing is written out here once; a test reads the
//! command files and holds this table to every `#[autocomplete]` in them.

use crate::bot::autocomplete::Kind;

/// What the autocomplete of `option` on the command `path` offers; `None` for an option no
/// command offers suggestions for.
pub fn kind(path: &[String], option: &str) -> Option<Kind> {
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    Some(match (path.as_slice(), option) {
        (["character", "restore"], "name") => Kind::Deleted,
        (["alias", "show" | "delete"], "name") => Kind::Alias,
        (["roll"] | ["gm", "roll"], "expression") => Kind::Expression,
        (["character", "set"], "field") => Kind::SheetField,
        (["attack"] | ["tft", "attack"], "target") => Kind::Target,
        (
            _,
            "character" | "attacker" | "target" | "name" | "healer" | "holder" | "surgeon" | "npc",
        ) => Kind::Character,
        (_, "characters") => Kind::Characters,
        (_, "skill") => Kind::Skill,
        (_, "weapon" | "pair") => Kind::Weapon,
        (_, "location" | "locations" | "shield") => Kind::Location,
        (_, "adjust") => Kind::TftAdjust,
        (_, "value") => Kind::SheetValue,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::serve::schema::Registered;

    /// The callback's name in `autocomplete.rs`.
    fn callback(kind: Kind) -> &'static str {
        match kind {
            Kind::Character => "character",
            Kind::Deleted => "deleted_character",
            Kind::Characters => "characters",
            Kind::Target => "target",
            Kind::Skill => "skill",
            Kind::Weapon => "weapon",
            Kind::Location => "location",
            Kind::TftAdjust => "tft_adjust",
            Kind::SheetValue => "sheet_value",
            Kind::SheetField => "sheet_field",
            Kind::Alias => "alias",
            Kind::Expression => "expression",
        }
    }

    /// Every `#[autocomplete = "autocomplete::f"]` in the command files, with the parameter it
    /// stands on: `(parameter, f)`, sorted.
    fn in_the_sources() -> Vec<(String, String)> {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/src/bot/commands");
        let mut out = Vec::new();
        for entry in std::fs::read_dir(folder).expect("the command files") {
            let path = entry.expect("a directory entry").path();
            let source = std::fs::read_to_string(&path).expect("a command file");
            let mut lines = source.lines();
            while let Some(line) = lines.next() {
                let Some((_, rest)) = line.split_once("#[autocomplete = \"autocomplete::") else {
                    continue;
                };
                let (callback, after) = rest.split_once("\"]").unwrap_or((rest, ""));
                // The parameter follows, on this line or a later one, after any other
                // attributes: `name: Type,`.
                let parameter = std::iter::once(after)
                    .chain(lines.by_ref())
                    .map(without_attributes)
                    .find(|l| !l.is_empty())
                    .and_then(|l| l.split_once(':'))
                    .map_or_else(
                        || panic!("{}: no parameter after {line}", path.display()),
                        |(name, _)| name.trim().trim_start_matches("r#").to_owned(),
                    );
                out.push((parameter, callback.to_owned()));
            }
        }
        out.sort();
        out
    }

    /// A line without the attributes it starts with (`#[min = 0] #[max = 9] n: i64` → `n: i64`).
    fn without_attributes(line: &str) -> &str {
        let mut line = line.trim();
        while let Some(rest) = line.strip_prefix("#[") {
            line = rest.split_once(']').map_or("", |(_, after)| after).trim();
        }
        line
    }

    #[test]
    fn every_autocompleted_option_offers_what_its_command_file_names() {
        let registered = Registered::of(&crate::bot::commands());
        let mut table: Vec<(String, String)> = registered
            .autocompleted()
            .into_iter()
            .map(|(path, option)| {
                let kind = kind(&path, &option.name).unwrap_or_else(|| {
                    panic!(
                        "/{} {} has autocomplete and no kind",
                        path.join(" "),
                        option.name
                    )
                });
                (option.name.clone(), callback(kind).to_owned())
            })
            .collect();
        table.sort();
        let sources = in_the_sources();
        assert!(sources.len() > 100, "only {} found", sources.len());
        assert_eq!(table, sources);
    }

    #[test]
    fn the_exceptions_by_command_hold() {
        let path = |p: &[&str]| p.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            kind(&path(&["character", "restore"]), "name"),
            Some(Kind::Deleted)
        );
        assert_eq!(
            kind(&path(&["character", "show"]), "name"),
            Some(Kind::Character)
        );
        assert_eq!(kind(&path(&["attack"]), "target"), Some(Kind::Target));
        assert_eq!(
            kind(&path(&["tft", "attack"]), "target"),
            Some(Kind::Target)
        );
        assert_eq!(
            kind(&path(&["luck", "award"]), "target"),
            Some(Kind::Character)
        );
        assert_eq!(kind(&path(&["roll"]), "expression"), Some(Kind::Expression));
        assert_eq!(kind(&path(&["alias", "delete"]), "name"), Some(Kind::Alias));
        assert_eq!(kind(&path(&["alias", "set"]), "expression"), None);
    }
}
