//! Every slash command the bot registers, with its per-member cooldown and its names and
//! descriptions from the catalogs. Here, not in a command file, so that the command files
//! import only `common` and never each other in a cycle (issue 39).

use super::{clocks, commands, help, learn, lobbies, replay, rollback, subs, Data, Error};
use crate::i18n::{lookup, Lang};

type Command = poise::Command<Data, Error>;

/// Every command, as registered with Discord.
pub fn all() -> Vec<Command> {
    vec![
        commands::play(),
        commands::move_(),
        commands::hand(),
        commands::board(),
        commands::undo(),
        commands::history(),
        commands::resign(),
        commands::cancel(),
        commands::rules(),
        learn::learn(),
        commands::games(),
        lobbies::lobbies(),
        clocks::clock(),
        clocks::settings(),
        clocks::replace(),
        clocks::kick(),
        rollback::rollback(),
        subs::sub(),
        clocks::stats(),
        replay::replay(),
        replay::export(),
        help::help(),
    ]
}

/// Per-member cooldowns of the commands that write, in seconds: a member cannot flood a server
/// with lobbies or the database with moves. Reading commands have none.
const COOLDOWNS: [(&str, u64); 12] = [
    ("play", 10),
    ("learn", 5),
    ("move", 2),
    ("undo", 2),
    ("resign", 3),
    ("cancel", 3),
    ("clock", 3),
    ("settings", 3),
    ("replace", 3),
    ("kick", 3),
    ("rollback", 3),
    ("stats", 3),
];

/// Gives the writing commands their per-member cooldowns ([`COOLDOWNS`]).
pub fn set_cooldowns(commands: &mut [Command]) {
    for cmd in commands {
        let Some((_, secs)) = COOLDOWNS.iter().find(|(name, _)| *name == cmd.name) else {
            continue;
        };
        let config = poise::CooldownConfig {
            user: Some(std::time::Duration::from_secs(*secs)),
            ..Default::default()
        };
        cmd.cooldown_config = std::sync::RwLock::new(config);
    }
}

/// Sets every command's and parameter's description from the catalogs (English), with French
/// names and descriptions as Discord localizations. Keys: `bot.cmd.<command>.name|desc` and
/// `bot.cmd.<command>.<param>.name|desc`.
pub fn localize(commands: &mut [Command]) {
    for cmd in commands {
        let base = format!("bot.cmd.{}", cmd.name);
        localize_one(cmd, &base);
    }
}

/// One command (or subcommand, under its parent's key) and its parameters, then its
/// subcommands (`bot.cmd.<command>.<subcommand>.…`).
fn localize_one(cmd: &mut Command, base: &str) {
    cmd.description = Some(lookup(Lang::En, &format!("{base}.desc")).to_string().into());
    cmd.name_localizations.to_mut().push((
        "fr".into(),
        lookup(Lang::Fr, &format!("{base}.name")).to_string().into(),
    ));
    cmd.description_localizations.to_mut().push((
        "fr".into(),
        lookup(Lang::Fr, &format!("{base}.desc")).to_string().into(),
    ));
    for p in &mut cmd.parameters {
        let key = format!("{base}.{}", p.name);
        p.description = Some(lookup(Lang::En, &format!("{key}.desc")).to_string().into());
        p.name_localizations.to_mut().push((
            "fr".into(),
            lookup(Lang::Fr, &format!("{key}.name")).to_string().into(),
        ));
        p.description_localizations.to_mut().push((
            "fr".into(),
            lookup(Lang::Fr, &format!("{key}.desc")).to_string().into(),
        ));
    }
    for sub in &mut cmd.subcommands {
        let key = format!("{base}.{}", sub.name);
        localize_one(sub, &key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    /// Discord refuses a command whose names are not lower-case words of at most 32 characters
    /// or whose descriptions are empty or longer than 100.
    #[test]
    fn every_command_is_localized_within_discord_limits() {
        let mut cmds = all();
        localize(&mut cmds);
        let name_ok = |n: &str| {
            !n.is_empty()
                && n.chars().count() <= 32
                && n.chars()
                    .all(|c| c == '-' || c == '_' || c.is_alphanumeric())
                && n.to_lowercase() == n
        };
        let desc_ok = |d: &str| !d.is_empty() && d.chars().count() <= 100 && !d.starts_with("bot.");
        let fr = |l: &[(Cow<'static, str>, Cow<'static, str>)]| {
            let mut fr = l.iter().filter(|(lang, _)| lang == "fr");
            let one = fr.next().map(|(_, v)| v.to_string()).unwrap_or_default();
            assert!(fr.next().is_none(), "one French localization");
            one
        };
        // Subcommands too (`/sub offer`): Discord checks them alike.
        let mut every: Vec<&Command> = cmds.iter().collect();
        let mut i = 0;
        while i < every.len() {
            let subs = &every[i].subcommands;
            every.extend(subs.iter());
            i += 1;
        }
        assert!(every.len() > cmds.len(), "subcommands are checked");
        for c in every {
            assert!(name_ok(&c.name), "{}", c.name);
            let name = fr(&c.name_localizations);
            assert!(name_ok(&name), "{name}");
            assert!(
                desc_ok(c.description.as_deref().unwrap_or("")),
                "{}",
                c.name
            );
            assert!(desc_ok(&fr(&c.description_localizations)), "{}", c.name);
            for p in &c.parameters {
                assert!(name_ok(&fr(&p.name_localizations)), "{} {}", c.name, p.name);
                assert!(
                    desc_ok(p.description.as_deref().unwrap_or("")),
                    "{} {}",
                    c.name,
                    p.name
                );
                assert!(
                    desc_ok(&fr(&p.description_localizations)),
                    "{} {}",
                    c.name,
                    p.name
                );
            }
        }
        // What is sent to Discord at registration carries the French names.
        let json = serde_json::to_value(poise::builtins::create_application_commands(&cmds))
            .unwrap_or_default();
        assert_eq!(json[0]["name"], "play");
        assert_eq!(json[0]["name_localizations"]["fr"], "jouer");
        assert_eq!(json[0]["options"][0]["name_localizations"]["fr"], "jeu");
        assert_eq!(json[0]["options"][0]["autocomplete"], true);
        assert_eq!(json[8]["name_localizations"]["fr"], "règles");
        let sub = json
            .as_array()
            .and_then(|a| a.iter().find(|c| c["name"] == "sub"))
            .expect("/sub is registered");
        assert_eq!(sub["name_localizations"]["fr"], "remplaçant");
        assert_eq!(sub["options"][0]["type"], 1, "a subcommand");
        assert_eq!(sub["options"][0]["name"], "offer");
        assert_eq!(sub["options"][0]["name_localizations"]["fr"], "proposer");
        assert_eq!(
            sub["options"][0]["options"][0]["name_localizations"]["fr"],
            "jeu"
        );
        let names: Vec<&str> = cmds.iter().map(|c| c.name.as_ref()).collect();
        assert_eq!(
            names,
            [
                "play", "move", "hand", "board", "undo", "history", "resign", "cancel", "rules",
                "learn", "games", "lobbies", "clock", "settings", "replace", "kick", "rollback",
                "sub", "stats", "replay", "export", "help"
            ]
        );
    }
}
