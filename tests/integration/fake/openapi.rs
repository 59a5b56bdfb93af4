//! Checks the bodies the bot sends against Discord's official OpenAPI request schemas.
//!
//! Owns loading `openapi.json` (from `$REFEREE_DISCORD_OPENAPI`, else
//! `$CARGO_MANIFEST_DIR/../shared/discord/openapi.json`) and compiling one validator per route the
//! bot writes to. Never fails a test because the file is missing: it warns once, loudly, and the
//! fake checks everything else. Compiled once per test process (the spec is large).

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::OnceLock;

use serde_json::Value;

/// The routes whose request bodies are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BodyRoute {
    /// `POST /interactions/{id}/{token}/callback`
    Callback,
    /// `POST /webhooks/{app}/{token}` (a follow-up)
    WebhookExecute,
    /// `PATCH /webhooks/{app}/{token}/messages/@original` or `/{message_id}`
    WebhookEdit,
    /// `POST /channels/{id}/messages`
    ChannelMessage,
    /// `PATCH /channels/{id}/messages/{message_id}` (the encounter's status, edited in place)
    ChannelMessageEdit,
    /// `PUT /applications/{app}/commands` and `.../guilds/{guild}/commands`
    Commands,
}

impl BodyRoute {
    const ALL: [(BodyRoute, &'static str, &'static str); 6] = [
        (
            BodyRoute::Callback,
            "/interactions/{interaction_id}/{interaction_token}/callback",
            "post",
        ),
        (
            BodyRoute::WebhookExecute,
            "/webhooks/{webhook_id}/{webhook_token}",
            "post",
        ),
        (
            BodyRoute::WebhookEdit,
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
            "patch",
        ),
        (
            BodyRoute::ChannelMessage,
            "/channels/{channel_id}/messages",
            "post",
        ),
        (
            BodyRoute::ChannelMessageEdit,
            "/channels/{channel_id}/messages/{message_id}",
            "patch",
        ),
        (
            BodyRoute::Commands,
            "/applications/{application_id}/commands",
            "put",
        ),
    ];
}

/// One compiled validator per [`BodyRoute`], plus the variants of the routes whose schema is an
/// `anyOf` (whose own error only says "not valid under any of the schemas").
pub struct Validators {
    compiled: Vec<(BodyRoute, jsonschema::Validator)>,
    variants: Vec<(&'static str, jsonschema::Validator)>,
}

/// The `anyOf` members whose errors explain a failure, by component name.
const VARIANTS: [&str; 4] = [
    "CreateMessageInteractionCallbackRequest",
    "UpdateMessageInteractionCallbackRequest",
    "ApplicationCommandAutocompleteCallbackRequest",
    "IncomingWebhookRequestPartial",
];

fn compile(schema: &Value, components: &Value, what: &str) -> jsonschema::Validator {
    // The schema refers to `#/components/schemas/...`: graft the spec's components onto it so
    // every reference resolves inside one document.
    let mut root = schema.clone();
    root.as_object_mut()
        .expect("a body schema is an object")
        .insert("components".into(), components.clone());
    jsonschema::draft202012::options()
        .build(&root)
        .unwrap_or_else(|e| panic!("the schema of {what} compiles: {e}"))
}

impl Validators {
    /// Builds the validators from a parsed spec. Panics (a broken spec file is a test bug) with
    /// the route whose schema does not compile.
    pub fn from_spec(spec: &Value) -> Self {
        let components = spec
            .get("components")
            .cloned()
            .expect("openapi.json has components");
        let compiled = BodyRoute::ALL
            .iter()
            .map(|&(route, path, method)| {
                let schema = spec
                    .pointer(&format!(
                        "/paths/{}/{method}/requestBody/content/application~1json/schema",
                        path.replace('~', "~0").replace('/', "~1")
                    ))
                    .unwrap_or_else(|| panic!("openapi.json has no JSON body for {method} {path}"));
                (
                    route,
                    compile(schema, &components, &format!("{method} {path}")),
                )
            })
            .collect();
        let variants = VARIANTS
            .iter()
            .filter(|name| components["schemas"].get(**name).is_some())
            .map(|&name| {
                let schema = serde_json::json!({ "$ref": format!("#/components/schemas/{name}") });
                (name, compile(&schema, &components, name))
            })
            .collect();
        Self { compiled, variants }
    }

    /// The `anyOf` member a body on `route` is meant to match, when the route has several.
    fn variant(route: BodyRoute, body: &Value) -> Option<&'static str> {
        match (route, body["type"].as_u64()) {
            (BodyRoute::Callback, Some(4 | 5)) => Some(VARIANTS[0]),
            (BodyRoute::Callback, Some(6 | 7)) => Some(VARIANTS[1]),
            (BodyRoute::Callback, Some(8)) => Some(VARIANTS[2]),
            (BodyRoute::WebhookExecute, _) => Some(VARIANTS[3]),
            _ => None,
        }
    }

    /// The validation errors of `body` on `route` (empty when it is valid). When the route's
    /// schema is an `anyOf`, the errors against the member the body means to follow, too.
    pub fn errors(&self, route: BodyRoute, body: &Value) -> Vec<String> {
        let body = &normalized(body);
        let describe = |v: &jsonschema::Validator| -> Vec<String> {
            v.iter_errors(body)
                .map(|e| format!("at {:?}: {}", e.instance_path.as_str(), e.masked()))
                .collect()
        };
        let Some((_, validator)) = self.compiled.iter().find(|(r, _)| *r == route) else {
            return Vec::new();
        };
        let mut errors = describe(validator);
        if !errors.is_empty()
            && let Some(name) = Self::variant(route, body)
            && let Some((_, v)) = self.variants.iter().find(|(n, _)| *n == name)
        {
            errors.extend(
                leaf_errors(v, body)
                    .into_iter()
                    .map(|e| format!("as {name}, {e}")),
            );
        }
        errors
    }
}

/// The innermost failures under a nested `oneOf`/`anyOf` (from the "basic" output format),
/// each cut short: the union's own message says nothing about which field is wrong.
fn leaf_errors(validator: &jsonschema::Validator, body: &Value) -> Vec<String> {
    let jsonschema::BasicOutput::Invalid(units) = validator.apply(body).basic() else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for unit in units {
        let unit = serde_json::to_value(&unit).unwrap_or_default();
        let error = unit["error"].as_str().unwrap_or_default();
        if error.contains("anyOf") || error.contains("oneOf") {
            continue;
        }
        let error = if error.len() > 160 {
            format!("…{}", &error[error.ceil_char_boundary(error.len() - 120)..])
        } else {
            error.to_owned()
        };
        let line = format!(
            "at {:?}: {error}",
            unit["instanceLocation"].as_str().unwrap_or("")
        );
        if !out.contains(&line) {
            out.push(line);
        }
    }
    out.truncate(15);
    out
}

/// The body with serenity's one harmless deviation from the spec undone: it numbers new
/// attachments `{"id": 0}` (a JSON number), which Discord accepts, while the spec types every
/// snowflake as a string.
fn normalized(body: &Value) -> Value {
    let mut body = body.clone();
    let target = if body.get("data").is_some_and(Value::is_object) {
        body["data"].get_mut("attachments")
    } else {
        body.get_mut("attachments")
    };
    if let Some(Value::Array(attachments)) = target {
        for a in attachments {
            if let Some(n) = a.get("id").and_then(Value::as_u64) {
                a["id"] = Value::String(n.to_string());
            }
        }
    }
    body
}

/// Where the spec is read from.
pub fn spec_path() -> PathBuf {
    std::env::var_os("REFEREE_DISCORD_OPENAPI").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/discord/openapi.json"),
        PathBuf::from,
    )
}

/// The process-wide validators, or `None` (after one warning) when the spec file is absent.
pub fn validators() -> Option<&'static Validators> {
    static VALIDATORS: OnceLock<Option<Validators>> = OnceLock::new();
    VALIDATORS
        .get_or_init(|| {
            let path = spec_path();
            match std::fs::read_to_string(&path) {
                Ok(text) => {
                    let spec: Value = serde_json::from_str(&text)
                        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
                    Some(Validators::from_spec(&spec))
                }
                Err(e) => {
                    // Straight to the process's stderr: the test harness captures `eprintln!`
                    // and would hide the warning whenever the tests pass.
                    let _ = writeln!(
                        std::io::stderr(),
                        "\n**********\nWARNING: {} not found ({e}) — request bodies are NOT \
                         checked against Discord's OpenAPI schemas\n**********\n",
                        path.display()
                    );
                    None
                }
            }
        })
        .as_ref()
}
