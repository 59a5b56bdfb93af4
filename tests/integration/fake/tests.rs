//! Tests of the fake itself: payload builders, the OpenAPI validator, the REST routes (through
//! serenity's own HTTP client) and the gateway (through serenity's own client).

use serde_json::{Value, json};
use serenity::all::{
    ChannelId, CreateAttachment, CreateInteractionResponse, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, CreateMessage, EditInteractionResponse, GatewayIntents,
    Interaction,
};

use super::openapi::{BodyRoute, Validators};
use super::payload::{self, Caller};
use super::{FakeDiscord, TIMEOUT};

fn http(fake: &FakeDiscord, token: &str) -> serenity::http::Http {
    serenity::http::HttpBuilder::new(token)
        .proxy(fake.base())
        .application_id(serenity::all::ApplicationId::new(payload::APPLICATION_ID))
        .ratelimiter_disabled(true)
        .build()
}

fn interaction(built: &payload::Built) -> Interaction {
    serde_json::from_value(built.json.clone()).expect("the builder's payload deserializes")
}

#[test]
fn builders_make_interactions_serenity_reads_with_the_callers_permissions() {
    let gm = Caller::gm(42);
    let slash = payload::command(
        &gm,
        "luck",
        vec![payload::subcommand(
            "spend",
            vec![
                payload::string("kind", "reroll"),
                payload::integer("points", 2),
            ],
        )],
        Value::Null,
    );
    let Interaction::Command(command) = interaction(&slash) else {
        panic!("a slash command is a Command interaction");
    };
    assert_eq!(command.data.name, "luck");
    assert_eq!(command.id.get(), slash.id);
    assert_eq!(command.token, slash.token);
    let member = command.member.as_ref().expect("a guild member");
    assert_eq!(member.user.id.get(), 42);
    assert!(member.permissions.expect("permissions").manage_guild());
    assert!(
        command
            .app_permissions
            .expect("app permissions")
            .administrator()
    );
    let sub = &command.data.options[0];
    assert_eq!(sub.name, "spend");
    assert_eq!(Caller::player(7).permissions & payload::MANAGE_GUILD, 0);

    let auto = payload::autocomplete(
        &Caller::player(7),
        "check",
        vec![
            payload::string("skill", "Sw"),
            payload::integer("modifier", 1),
        ],
        "skill",
    );
    let Interaction::Autocomplete(auto) = interaction(&auto) else {
        panic!("type 4 is an Autocomplete interaction");
    };
    let focused = auto.data.autocomplete().expect("a focused option");
    assert_eq!((focused.name, focused.value), ("skill", "Sw"));

    let message = payload::message(
        payload::next_id(),
        payload::CHANNEL_ID,
        &json!({
            "content": "rolled",
            "components": [{"type": 1, "components": [
                {"type": 2, "style": 1, "label": "Reroll", "custom_id": "luck:reroll:3"}
            ]}],
        }),
    );
    let press = payload::button(&Caller::player(7), message, "luck:reroll:3");
    let Interaction::Component(press) = interaction(&press) else {
        panic!("type 3 is a Component interaction");
    };
    assert_eq!(press.data.custom_id, "luck:reroll:3");
    assert_eq!(press.message.content, "rolled");
    assert_eq!(press.message.components.len(), 1);
}

#[test]
fn a_payload_serenity_cannot_read_is_refused_loudly() {
    let mut built = payload::command(&Caller::player(1), "roll", vec![], Value::Null);
    // A member without `user` is one of the shapes serenity rejects.
    built.json["member"]
        .as_object_mut()
        .expect("member")
        .remove("user");
    let refused = std::panic::catch_unwind(|| payload::checked(&built.json));
    let message = *refused
        .expect_err("the broken payload is refused")
        .downcast::<String>()
        .expect("a formatted panic message");
    assert!(message.contains("serenity 0.12 cannot read"), "{message}");
}

/// A spec shaped like Discord's, small enough to write by hand, for when the real one is absent.
fn mini_spec() -> Value {
    let body =
        json!({"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Msg"}}}});
    let op = |method: &str| json!({ method: { "requestBody": body.clone() } });
    json!({
        "paths": {
            "/interactions/{interaction_id}/{interaction_token}/callback": op("post"),
            "/webhooks/{webhook_id}/{webhook_token}": op("post"),
            "/webhooks/{webhook_id}/{webhook_token}/messages/@original": op("patch"),
            "/channels/{channel_id}/messages": op("post"),
            "/channels/{channel_id}/messages/{message_id}": op("patch"),
            "/applications/{application_id}/commands": op("put"),
        },
        "components": {"schemas": {"Msg": {
            "type": "object",
            "properties": {
                "content": {"type": ["string", "null"], "maxLength": 2000},
                "flags": {"type": ["integer", "null"]},
            },
        }}},
    })
}

/// `max`: the longest content the route allows (Discord's spec says 4000 for a channel
/// message, 2000 for interaction messages).
fn check_validator(
    validators: &Validators,
    route: BodyRoute,
    max: usize,
    wrap: impl Fn(Value) -> Value,
) {
    let good = wrap(json!({"content": "hello", "flags": 64, "allowed_mentions": {"parse": []}}));
    assert_eq!(validators.errors(route, &good), Vec::<String>::new());
    let longest = wrap(json!({"content": "x".repeat(max)}));
    let errors = validators.errors(route, &longest);
    assert!(
        errors.is_empty(),
        "{route:?}: {max} characters are refused: {}",
        errors
            .iter()
            .map(|e| e.replace(&"x".repeat(max), "x…"))
            .collect::<Vec<_>>()
            .join("; ")
    );
    let long = wrap(json!({"content": "x".repeat(max + 1)}));
    let errors = validators.errors(route, &long);
    assert!(!errors.is_empty(), "{} characters of content pass", max + 1);
    // Even behind an `anyOf`, the report names the actual fault.
    assert!(
        errors.iter().any(|e| e.contains("longer than")),
        "{route:?}: {errors:?}"
    );
    let flags = wrap(json!({"content": "hi", "flags": "64"}));
    assert!(
        !validators.errors(route, &flags).is_empty(),
        "string flags pass"
    );
}

#[test]
fn the_validator_accepts_a_message_and_refuses_long_content_and_string_flags() {
    let mini = Validators::from_spec(&mini_spec());
    check_validator(&mini, BodyRoute::ChannelMessage, 2000, |v| v);
    check_validator(&mini, BodyRoute::ChannelMessageEdit, 2000, |v| v);

    let path = super::openapi::spec_path();
    if let Ok(text) = std::fs::read_to_string(&path) {
        let spec: Value = serde_json::from_str(&text).expect("openapi.json parses");
        let real = Validators::from_spec(&spec);
        check_validator(&real, BodyRoute::ChannelMessage, 4000, |v| v);
        check_validator(&real, BodyRoute::WebhookExecute, 2000, |v| v);
        check_validator(&real, BodyRoute::WebhookEdit, 2000, |v| v);
        check_validator(
            &real,
            BodyRoute::Callback,
            2000,
            |v| json!({"type": 4, "data": v}),
        );
        // A command description over 100 characters is what Discord refuses at registration.
        let command = |d: &str| json!([{"name": "roll", "description": d, "type": 1}]);
        assert!(
            real.errors(BodyRoute::Commands, &command("Roll dice"))
                .is_empty()
        );
        assert!(
            !real
                .errors(BodyRoute::Commands, &command(&"d".repeat(101)))
                .is_empty()
        );
    } else {
        eprintln!(
            "WARNING: {} not found — only the hand-written schema was checked",
            path.display()
        );
    }
}

#[test]
fn multipart_bodies_give_their_payload_json_and_files() {
    let body = b"preamble\r\n--XyZ\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\
        Content-Type: application/json\r\n\r\n{\"content\":\"sheet\"}\r\n--XyZ\r\n\
        Content-Disposition: form-data; name=\"files[0]\"; filename=\"gala.json\"\r\n\
        Content-Type: application/json\r\n\r\n{\"a\":\r\n1}\r\n--XyZ--\r\n";
    let (json, files) = super::rest::decode_body("multipart/form-data; boundary=XyZ", body);
    assert_eq!(json, Some(json!({"content": "sheet"})));
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].field, "files[0]");
    assert_eq!(files[0].filename.as_deref(), Some("gala.json"));
    assert_eq!(files[0].bytes, b"{\"a\":\r\n1}");
}

#[test]
fn a_binary_file_in_a_multipart_body_keeps_every_byte() {
    // A PNG's bytes: not UTF-8, with line breaks, dashes and zeros of their own.
    let png: Vec<u8> = [
        0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1A, b'\n', 0, 0xFF, b'-', b'-',
    ]
    .into_iter()
    .chain((0..=255).chain([b'\r', b'\n']))
    .collect();
    let mut body =
        b"--XyZ\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"odds.png\"\r\n\
        Content-Type: image/png\r\n\r\n"
            .to_vec();
    body.extend_from_slice(&png);
    body.extend_from_slice(b"\r\n--XyZ\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{}\r\n--XyZ--\r\n");
    let (json, files) = super::rest::decode_body("multipart/form-data; boundary=XyZ", &body);
    assert_eq!(json, Some(json!({})));
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].content_type.as_deref(), Some("image/png"));
    assert_eq!(files[0].bytes, png);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rest_routes_answer_serenitys_client_and_record_every_request() {
    let fake = FakeDiscord::start();
    let http = http(&fake, fake.token());

    let info = http
        .get_current_application_info()
        .await
        .expect("application info");
    assert_eq!(info.id.get(), payload::APPLICATION_ID);
    let gateway = http.get_gateway().await.expect("gateway");
    assert_eq!(gateway.url, format!("ws://127.0.0.1:{}/ws", fake.port()));

    let commands = vec![
        serenity::all::CreateCommand::new("roll").description("Roll dice"),
        serenity::all::CreateCommand::new("help").description("Help"),
    ];
    let registered = http
        .create_global_commands(&commands)
        .await
        .expect("registration answer parses");
    assert_eq!(registered.len(), 2);
    assert_eq!(registered[0].name, "roll");
    let in_guild = serenity::all::GuildId::new(payload::GUILD_ID)
        .set_commands(&http, commands)
        .await
        .expect("guild registration answer parses");
    assert_eq!(in_guild[1].name, "help");

    // A callback, a follow-up with a file, an edit of the original, a channel message.
    let built = payload::command(&Caller::player(5), "roll", vec![], Value::Null);
    let Interaction::Command(command) = interaction(&built) else {
        panic!("a command")
    };
    command
        .create_response(
            &http,
            CreateInteractionResponse::Message(
                CreateInteractionResponseMessage::new()
                    .content("2d6+1 → 9")
                    .ephemeral(true),
            ),
        )
        .await
        .expect("callback accepted");
    let followup = command
        .create_followup(
            &http,
            CreateInteractionResponseFollowup::new()
                .content("your sheet")
                .add_file(CreateAttachment::bytes(
                    b"{\"name\":\"Gala\"}".to_vec(),
                    "gala.json",
                )),
        )
        .await
        .expect("follow-up answered with a Message");
    assert_eq!(followup.content, "your sheet");
    let edited = command
        .edit_response(&http, EditInteractionResponse::new().content("edited"))
        .await
        .expect("edit answered with a Message");
    assert_eq!(edited.content, "edited");
    let original = command
        .get_response(&http)
        .await
        .expect("the original message");
    assert_eq!(original.content, "edited");
    let copy = ChannelId::new(payload::GM_CHANNEL_ID)
        .send_message(&http, CreateMessage::new().content("GM copy"))
        .await
        .expect("channel message answered");
    assert_eq!(copy.channel_id.get(), payload::GM_CHANNEL_ID);

    let callback = fake.callback_for(built.id);
    assert_eq!(callback.body()["type"], 4);
    assert_eq!(callback.body()["data"]["flags"], 64);
    let follow = fake.followup_for(&built.token, 0);
    assert_eq!(follow.body()["content"], "your sheet");
    assert_eq!(follow.files.len(), 1, "the attached file is recorded");
    assert_eq!(follow.files[0].bytes, b"{\"name\":\"Gala\"}");
    assert_eq!(follow.files[0].filename.as_deref(), Some("gala.json"));
    let channel = fake.wait_for("the GM copy", TIMEOUT, |r| {
        r.is_channel_message(payload::GM_CHANNEL_ID)
    });
    assert_eq!(channel.body()["content"], "GM copy");
    assert!(
        fake.requests()
            .iter()
            .all(|r| r.header("authorization") == Some(&format!("Bot {}", fake.token()))),
        "every request carries the bot token"
    );
    fake.finish();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_token_gets_401_and_an_unknown_route_fails_the_test() {
    let fake = FakeDiscord::start();
    let wrong = http(&fake, "not-the-token");
    let err = wrong
        .get_current_application_info()
        .await
        .expect_err("a wrong token is refused");
    assert!(err.to_string().contains("Unauthorized"), "{err}");
    assert_eq!(fake.requests()[0].status, 401);
    assert!(
        fake.unknown_routes().is_empty(),
        "a 401 is not an unknown route"
    );

    let right = http(&fake, fake.token());
    let err = serenity::all::GuildId::new(payload::GUILD_ID)
        .bans(&right, None, None)
        .await
        .expect_err("the fake serves no bans");
    assert!(err.to_string().contains("Not Found"), "{err}");
    assert_eq!(
        fake.unknown_routes(),
        vec![format!("GET /api/v10/guilds/{}/bans", payload::GUILD_ID)]
    );
    let failed = std::panic::catch_unwind(|| fake.finish());
    assert!(failed.is_err(), "finish() fails on an unknown route");
    // Forget the route on purpose, so dropping the fake does not fail this test.
    assert_eq!(fake.take_problems().len(), 1);

    // Attachments are served without a token, as Discord's CDN does.
    let (_, url) = fake.add_attachment("gala.json", b"{}".to_vec());
    let body = reqwest_free_get(&url).await;
    assert!(body.ends_with("\r\n\r\n{}"), "{body}");
}

/// A bare HTTP/1.1 GET over a TCP socket (the test crate has no HTTP client of its own).
async fn reqwest_free_get(url: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (host, path) = rest.split_once('/').expect("a path");
    let mut socket = tokio::net::TcpStream::connect(host).await.expect("connect");
    socket
        .write_all(
            format!("GET /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .await
        .expect("send");
    let mut out = String::new();
    tokio::time::timeout(TIMEOUT, socket.read_to_string(&mut out))
        .await
        .expect("the answer within the timeout")
        .expect("read");
    out
}

struct Echo;

#[serenity::async_trait]
impl serenity::all::EventHandler for Echo {
    async fn interaction_create(&self, ctx: serenity::all::Context, interaction: Interaction) {
        if let Interaction::Command(command) = interaction {
            let _ = command
                .create_response(
                    &ctx.http,
                    CreateInteractionResponse::Message(
                        CreateInteractionResponseMessage::new().content(command.data.name.clone()),
                    ),
                )
                .await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateway_serves_serenitys_client_through_ready_dispatch_and_resume() {
    let fake = FakeDiscord::start();
    let mut client = serenity::all::ClientBuilder::new_with_http(
        http(&fake, fake.token()),
        GatewayIntents::empty(),
    )
    .event_handler(Echo)
    .await
    .expect("a serenity client");
    let shards = client.shard_manager.clone();
    let task = tokio::spawn(async move { client.start().await });

    let fake = std::sync::Arc::new(fake);
    let f = fake.clone();
    tokio::task::spawn_blocking(move || {
        f.wait_ready(1, TIMEOUT);
        let first = payload::command(&Caller::player(3), "first", vec![], Value::Null);
        f.dispatch(&first);
        assert_eq!(f.callback_for(first.id).body()["data"]["content"], "first");
        // Drop the socket: serenity resumes the session and dispatches still arrive.
        f.drop_gateway();
        let second = payload::command(&Caller::player(3), "second", vec![], Value::Null);
        f.dispatch(&second);
        assert_eq!(
            f.callback_for(second.id).body()["data"]["content"],
            "second"
        );
        let seqs: Vec<u64> = f.dispatches().iter().map(|d| d.seq).collect();
        assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
    })
    .await
    .expect("the gateway checks pass");
    shards.shutdown_all().await;
    let _ = tokio::time::timeout(TIMEOUT, task).await;
    fake.finish();
}
