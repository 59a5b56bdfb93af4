//! Autocomplete for character, skill, weapon, location, saved roll and dice expression options. The suggestions come from
//! `app` (`App::suggest`), which limits them to what the caller may see; this file only reads the
//! command path and the character already typed from the interaction.

use std::sync::Arc;

use poise::serenity_prelude as serenity;

use super::invoke::command_caller;
use super::{Context, Data};
use crate::app::suggest::{Suggest, SuggestContext};

/// What an option with autocomplete offers: one per callback below, so `referee serve`, which
/// has no poise context, answers through the same code ([`complete`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Character names the caller may see.
    Character,
    /// Deleted characters a GM may restore.
    Deleted,
    /// A comma-separated list of characters.
    Characters,
    /// An attack's target: the encounter's figures first.
    Target,
    Skill,
    Weapon,
    Location,
    /// `/tft attack adjust:`.
    TftAdjust,
    /// `/character set value:`.
    SheetValue,
    /// `/character set field:`.
    SheetField,
    /// A saved roll's name (`/alias show|delete name:`).
    Alias,
    /// A dice expression (`/roll`, `/gm roll`): saved rolls, then the caller's recent rolls.
    Expression,
}

/// Character names the caller may see.
pub async fn character(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    from_poise(ctx, Kind::Character, typed).await
}

/// Deleted characters a GM may restore (nothing for a player).
pub async fn deleted_character(
    ctx: Context<'_>,
    typed: &str,
) -> serenity::CreateAutocompleteResponse {
    from_poise(ctx, Kind::Deleted, typed).await
}

/// A comma-separated list of characters (`/gm request characters:`): the names the caller may
/// see for the last name being typed, each offered after the names already typed.
pub async fn characters(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    from_poise(ctx, Kind::Characters, typed).await
}

/// An attack's target: the figures of the channel's encounter first (a player may attack its
/// NPCs there), then the characters the caller may see.
pub async fn target(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    from_poise(ctx, Kind::Target, typed).await
}

/// Skills of the character named in the same command (or the caller's latest), then the catalogue.
pub async fn skill(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    from_poise(ctx, Kind::Skill, typed).await
}

/// Weapons the command accepts.
pub async fn weapon(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    from_poise(ctx, Kind::Weapon, typed).await
}

/// Hit locations.
pub async fn location(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    from_poise(ctx, Kind::Location, typed).await
}

/// A saved roll's name: the caller's own, then the server's.
pub async fn alias(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    from_poise(ctx, Kind::Alias, typed).await
}

/// A dice expression: the saved rolls the caller may roll, then what they rolled lately.
pub async fn expression(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    from_poise(ctx, Kind::Expression, typed).await
}

/// `/tft attack adjust:`: the named circumstances, the list typed so far kept.
pub async fn tft_adjust(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    from_poise(ctx, Kind::TftAdjust, typed).await
}

/// `/character set field:`: the sheet fields of both systems.
pub async fn sheet_field(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    from_poise(ctx, Kind::SheetField, typed).await
}

/// `/character set value:`: when the field is `talents`, the talents the TFT rules know, the
/// list typed so far kept; for any other field nothing is offered (the value is free text).
pub async fn sheet_value(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    from_poise(ctx, Kind::SheetValue, typed).await
}

async fn from_poise(
    ctx: Context<'_>,
    kind: Kind,
    typed: &str,
) -> serenity::CreateAutocompleteResponse {
    let poise::Context::Application(actx) = ctx else {
        return serenity::CreateAutocompleteResponse::new();
    };
    complete(ctx.data(), actx.interaction, kind, typed).await
}

/// The suggestions of `kind` for `typed`, in the autocomplete request `interaction`: nothing
/// outside a guild, and nothing when `app` fails.
pub async fn complete(
    data: &Data,
    interaction: &serenity::CommandInteraction,
    kind: Kind,
    typed: &str,
) -> serenity::CreateAutocompleteResponse {
    // Neither needs the store (nor the caller).
    match kind {
        Kind::TftAdjust => return choices(crate::app::tft::adjust_suggestions(typed)),
        Kind::SheetField => return choices(crate::app::characters::field_suggestions(typed)),
        Kind::SheetValue => {
            return if option_text(&interaction.data, "field")
                .is_some_and(|f| f.trim().eq_ignore_ascii_case("talents"))
            {
                choices(crate::app::tft::talent_suggestions(typed))
            } else {
                serenity::CreateAutocompleteResponse::new()
            };
        }
        _ => {}
    }
    let Some(caller) = command_caller(interaction) else {
        return serenity::CreateAutocompleteResponse::new();
    };
    let app = Arc::clone(&data.app);
    let typed = typed.to_owned();
    let values = match kind {
        Kind::Characters => {
            data.workers
                .run(move || crate::app::gm::request::suggest_characters(&app, &caller, &typed))
                .await
        }
        Kind::Target => {
            let channel = interaction.channel_id.get();
            data.workers
                .run(move || crate::app::encounter::suggest_targets(&app, &caller, channel, &typed))
                .await
        }
        _ => {
            let what = match kind {
                Kind::Deleted => Suggest::Deleted,
                Kind::Skill => Suggest::Skill,
                Kind::Weapon => Suggest::Weapon,
                Kind::Location => Suggest::Location,
                Kind::Alias => Suggest::Alias,
                Kind::Expression => Suggest::Expression,
                _ => Suggest::Character,
            };
            let (path, character) = path_and_character(&interaction.data);
            data.workers
                .run(move || {
                    let command: Vec<&str> = path.iter().map(String::as_str).collect();
                    let context = SuggestContext {
                        character: character.as_deref(),
                        command: &command,
                    };
                    app.suggest(&caller, what, &typed, &context)
                })
                .await
        }
    };
    choices(values.unwrap_or_default())
}

fn choices(values: Vec<String>) -> serenity::CreateAutocompleteResponse {
    serenity::CreateAutocompleteResponse::new().set_choices(
        values
            .into_iter()
            .map(|s| serenity::AutocompleteChoice::new(s.clone(), s))
            .collect(),
    )
}

/// A text option's value, looked for in the innermost subcommand's options.
fn option_text(data: &serenity::CommandData, name: &str) -> Option<String> {
    let mut options = &data.options;
    while let Some(inner) = options.iter().find_map(|o| match &o.value {
        serenity::CommandDataOptionValue::SubCommand(inner)
        | serenity::CommandDataOptionValue::SubCommandGroup(inner) => Some(inner),
        _ => None,
    }) {
        options = inner;
    }
    options
        .iter()
        .find(|o| o.name == name)
        .and_then(|o| match &o.value {
            serenity::CommandDataOptionValue::String(s) => Some(s.clone()),
            serenity::CommandDataOptionValue::Autocomplete { value, .. } => Some(value.clone()),
            _ => None,
        })
}

/// The command's path (`["tft", "attack"]`) and the character it acts with, if typed: the
/// `character` option, else `attacker`, else `name` inside `/character …`.
fn path_and_character(data: &serenity::CommandData) -> (Vec<String>, Option<String>) {
    let mut path = vec![data.name.clone()];
    let mut options = &data.options;
    loop {
        let nested = options.iter().find_map(|o| match &o.value {
            serenity::CommandDataOptionValue::SubCommand(inner)
            | serenity::CommandDataOptionValue::SubCommandGroup(inner) => Some((&o.name, inner)),
            _ => None,
        });
        match nested {
            Some((name, inner)) => {
                path.push(name.clone());
                options = inner;
            }
            None => break,
        }
    }
    let text = |name: &str| {
        options
            .iter()
            .find(|o| o.name == name)
            .and_then(|o| match &o.value {
                serenity::CommandDataOptionValue::String(s) => Some(s.clone()),
                serenity::CommandDataOptionValue::Autocomplete { value, .. } => Some(value.clone()),
                _ => None,
            })
    };
    let character = text("character")
        .or_else(|| text("attacker"))
        .or_else(|| (path[0] == "character").then(|| text("name")).flatten())
        .filter(|c| !c.trim().is_empty());
    (path, character)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(json: serde_json::Value) -> serenity::CommandData {
        serde_json::from_value(json).expect("valid command data")
    }

    #[test]
    fn the_path_and_the_character_come_from_nested_options() {
        let d = data(serde_json::json!({
            "id": "1", "name": "tft", "type": 1,
            "options": [{ "name": "attack", "type": 1, "options": [
                { "name": "attacker", "type": 3, "value": "Joe" },
                { "name": "weapon", "type": 3, "value": "bro", "focused": true }
            ]}]
        }));
        assert_eq!(
            path_and_character(&d),
            (
                vec!["tft".to_owned(), "attack".to_owned()],
                Some("Joe".to_owned())
            )
        );
        let d = data(serde_json::json!({
            "id": "1", "name": "check", "type": 1,
            "options": [{ "name": "skill", "type": 3, "value": "Sw", "focused": true }]
        }));
        assert_eq!(path_and_character(&d), (vec!["check".to_owned()], None));
        let d = data(serde_json::json!({
            "id": "1", "name": "character", "type": 1,
            "options": [{ "name": "skill", "type": 1, "options": [
                { "name": "name", "type": 3, "value": "Gala" },
                { "name": "skill", "type": 3, "value": "", "focused": true }
            ]}]
        }));
        assert_eq!(path_and_character(&d).1.as_deref(), Some("Gala"));
    }

    #[test]
    fn the_field_beside_a_value_is_read() {
        let d = data(serde_json::json!({
            "id": "1", "name": "character", "type": 1,
            "options": [{ "name": "set", "type": 1, "options": [
                { "name": "field", "type": 3, "value": "talents" },
                { "name": "value", "type": 3, "value": "Sw", "focused": true }
            ]}]
        }));
        assert_eq!(option_text(&d, "field").as_deref(), Some("talents"));
        assert_eq!(option_text(&d, "name"), None);
    }
}
