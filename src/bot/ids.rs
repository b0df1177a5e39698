//! Component custom ids. They carry everything a click needs (game, version, option), so one
//! global handler routes them, and they keep working after a restart.
//!
//! - `g:<game>:<version>:<index>`: a button for the `index`-th option of the prompt at `version`
//! - `s:<game>:<version>[:<part>]`: a select menu of that prompt (the chosen value is the
//!   option's index; a long prompt has several menus, `part` 1, 2, ...)
//! - `o:<game>:<version>`: the menu of option groups of a long prompt (the value is the group)
//! - `l:<game>:<join|leave|start|cancel|bot|unbot|follow|rematch|accept|decline>`: lobby buttons
//! - `h:<game>`: "Show my hand"
//! - `z:<game>`: "Zoom", the board's parts that matter to the clicker at full size (phones)
//! - `k:<game>:<resign|cancel|forfeit|agree|keep>`: the answer to "are you sure?" after `/resign`, `/cancel`
//! - `m:<game>:<version>:<index>`: "Confirm" under "Play …?" (`/settings confirm_moves`): plays
//!   the `index`-th option of the prompt at `version`, asked about privately
//! - `t:<game>:<version>:<line>`: the same for a typed line that is not one option (the line is
//!   the rest of the id, `:` included; a line too long for it is not offered)
//! - `a:<game>`: "Analyse my game" on a finished game's result card (`bot::analysis`)
//! - `b:<game>:<ask|yes|no>`: "Ask to take back" on a board, and the other players' Accept
//!   and Refuse under a take-back request (`bot::takeback`)
//! - `r:<game>:<version>:<keep>:<y|n>`: Confirm or Refuse under a rollback request
//!   (`bot::rollback`): the game asked about at `version`, kept to its first `keep` moves
//! - `p:<game>:<step>:<f|b|n|l>`: a replay's ⏮ ◀ ▶ ⏭, each naming the step it shows (the
//!   letter keeps two buttons to one step apart: custom ids differ within a message)

use crate::engine::{GameId, Version};

/// Discord's limit on a custom id.
pub const MAX_CUSTOM_ID: usize = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LobbyAction {
    Join,
    Leave,
    Start,
    Cancel,
    AddBot,
    RemoveBot,
    /// A spectator joins a running game's thread.
    Follow,
    /// A player of a finished game opens its rematch, or confirms their seat in it.
    Rematch,
    /// An invited member takes the seat kept for them.
    Accept,
    /// An invited member frees the seat kept for them.
    Decline,
}

impl LobbyAction {
    pub const ALL: [LobbyAction; 10] = [
        LobbyAction::Join,
        LobbyAction::Leave,
        LobbyAction::Start,
        LobbyAction::Cancel,
        LobbyAction::AddBot,
        LobbyAction::RemoveBot,
        LobbyAction::Follow,
        LobbyAction::Rematch,
        LobbyAction::Accept,
        LobbyAction::Decline,
    ];

    fn as_str(self) -> &'static str {
        match self {
            LobbyAction::Join => "join",
            LobbyAction::Leave => "leave",
            LobbyAction::Start => "start",
            LobbyAction::Cancel => "cancel",
            LobbyAction::AddBot => "bot",
            LobbyAction::RemoveBot => "unbot",
            LobbyAction::Follow => "follow",
            LobbyAction::Rematch => "rematch",
            LobbyAction::Accept => "accept",
            LobbyAction::Decline => "decline",
        }
    }
}

/// What a confirmation button does: the step asked about, or nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirm {
    Resign,
    /// Cancel with no rating (refused if it would now count as the host's resignation).
    Cancel,
    /// The host cancels, knowing it counts as their resignation in the ratings.
    CancelResigning,
    /// A player asks, or agrees, to cancel with no rating.
    Agree,
    Keep,
}

impl Confirm {
    pub const ALL: [Confirm; 5] = [
        Confirm::Resign,
        Confirm::Cancel,
        Confirm::CancelResigning,
        Confirm::Agree,
        Confirm::Keep,
    ];

    fn as_str(self) -> &'static str {
        match self {
            Confirm::Resign => "resign",
            Confirm::Cancel => "cancel",
            Confirm::CancelResigning => "forfeit",
            Confirm::Agree => "agree",
            Confirm::Keep => "keep",
        }
    }
}

/// A take-back button: ask (on a board), or answer the pending request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakebackButton {
    Ask,
    Accept,
    Refuse,
}

impl TakebackButton {
    pub const ALL: [TakebackButton; 3] = [
        TakebackButton::Ask,
        TakebackButton::Accept,
        TakebackButton::Refuse,
    ];

    fn as_str(self) -> &'static str {
        match self {
            TakebackButton::Ask => "ask",
            TakebackButton::Accept => "yes",
            TakebackButton::Refuse => "no",
        }
    }
}

/// A replay's buttons: first, back, next, last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayButton {
    First,
    Back,
    Next,
    Last,
}

impl ReplayButton {
    pub const ALL: [ReplayButton; 4] = [
        ReplayButton::First,
        ReplayButton::Back,
        ReplayButton::Next,
        ReplayButton::Last,
    ];

    fn as_str(self) -> &'static str {
        match self {
            ReplayButton::First => "f",
            ReplayButton::Back => "b",
            ReplayButton::Next => "n",
            ReplayButton::Last => "l",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CustomId {
    Choose {
        game: GameId,
        version: Version,
        index: usize,
    },
    Menu {
        game: GameId,
        version: Version,
        /// Which of the prompt's menus (custom ids must differ within a message).
        part: usize,
    },
    Group {
        game: GameId,
        version: Version,
    },
    Lobby {
        game: GameId,
        action: LobbyAction,
    },
    Hand {
        game: GameId,
    },
    Zoom {
        game: GameId,
    },
    Confirm {
        game: GameId,
        action: Confirm,
    },
    Replay {
        game: GameId,
        step: u32,
        button: ReplayButton,
    },
    Analyse {
        game: GameId,
    },
    Takeback {
        game: GameId,
        button: TakebackButton,
    },
    /// A confirmed option, as `Choose`, from its private question.
    Play {
        game: GameId,
        version: Version,
        index: usize,
    },
    /// A confirmed typed line; the line itself is read with [`confirmed_line`].
    PlayLine {
        game: GameId,
        version: Version,
    },
    /// A seated player's answer to the rollback asked at `version`, keeping `keep` moves.
    Rollback {
        game: GameId,
        version: Version,
        keep: usize,
        yes: bool,
    },
}

/// The custom id of a typed line's "Confirm", if the line fits Discord's limit.
pub fn play_line_id(game: GameId, version: Version, line: &str) -> Option<String> {
    let id = format!("t:{}:{}:{line}", game.0, version.0);
    (id.len() <= MAX_CUSTOM_ID && !line.is_empty()).then_some(id)
}

/// The line a `t:` custom id carries.
pub fn confirmed_line(custom_id: &str) -> Option<&str> {
    let mut parts = custom_id.splitn(4, ':');
    (parts.next() == Some("t")).then_some(())?;
    parts.next()?;
    parts.next()?;
    parts.next().filter(|l| !l.is_empty())
}

impl CustomId {
    pub fn encode(&self) -> String {
        match self {
            CustomId::Choose {
                game,
                version,
                index,
            } => format!("g:{}:{}:{index}", game.0, version.0),
            CustomId::Menu {
                game,
                version,
                part: 0,
            } => format!("s:{}:{}", game.0, version.0),
            CustomId::Menu {
                game,
                version,
                part,
            } => format!("s:{}:{}:{part}", game.0, version.0),
            CustomId::Group { game, version } => format!("o:{}:{}", game.0, version.0),
            CustomId::Lobby { game, action } => format!("l:{}:{}", game.0, action.as_str()),
            CustomId::Hand { game } => format!("h:{}", game.0),
            CustomId::Zoom { game } => format!("z:{}", game.0),
            CustomId::Confirm { game, action } => format!("k:{}:{}", game.0, action.as_str()),
            CustomId::Replay { game, step, button } => {
                format!("p:{}:{step}:{}", game.0, button.as_str())
            }
            CustomId::Analyse { game } => format!("a:{}", game.0),
            CustomId::Takeback { game, button } => format!("b:{}:{}", game.0, button.as_str()),
            CustomId::Play {
                game,
                version,
                index,
            } => format!("m:{}:{}:{index}", game.0, version.0),
            // The line is added by `play_line_id`; alone, this names no line and decodes to
            // nothing.
            CustomId::PlayLine { game, version } => format!("t:{}:{}:", game.0, version.0),
            CustomId::Rollback {
                game,
                version,
                keep,
                yes,
            } => format!(
                "r:{}:{}:{keep}:{}",
                game.0,
                version.0,
                if *yes { "y" } else { "n" }
            ),
        }
    }

    /// The game a component belongs to.
    pub fn game(&self) -> Option<GameId> {
        match self {
            CustomId::Choose { game, .. }
            | CustomId::Menu { game, .. }
            | CustomId::Group { game, .. }
            | CustomId::Lobby { game, .. }
            | CustomId::Hand { game }
            | CustomId::Zoom { game }
            | CustomId::Confirm { game, .. }
            | CustomId::Replay { game, .. }
            | CustomId::Analyse { game }
            | CustomId::Takeback { game, .. }
            | CustomId::Play { game, .. }
            | CustomId::PlayLine { game, .. }
            | CustomId::Rollback { game, .. } => Some(*game),
        }
    }

    /// `None` for anything we did not make (or made by a future version we do not know).
    pub fn decode(s: &str) -> Option<CustomId> {
        let game = |p: &str| p.parse::<i64>().ok().map(GameId);
        let version = |p: &str| p.parse::<u32>().ok().map(Version);
        // A typed line may hold anything after its version, `:` too.
        if s.starts_with("t:") {
            confirmed_line(s)?;
            let mut parts = s.splitn(4, ':').skip(1);
            return Some(CustomId::PlayLine {
                game: game(parts.next()?)?,
                version: version(parts.next()?)?,
            });
        }
        let parts: Vec<&str> = s.split(':').collect();
        match parts.as_slice() {
            ["g", g, v, i] => Some(CustomId::Choose {
                game: game(g)?,
                version: version(v)?,
                index: i.parse().ok()?,
            }),
            ["s", g, v] => Some(CustomId::Menu {
                game: game(g)?,
                version: version(v)?,
                part: 0,
            }),
            ["s", g, v, p] => Some(CustomId::Menu {
                game: game(g)?,
                version: version(v)?,
                part: p.parse().ok().filter(|&p: &usize| p > 0 && p < 5)?,
            }),
            ["o", g, v] => Some(CustomId::Group {
                game: game(g)?,
                version: version(v)?,
            }),
            ["l", g, a] => Some(CustomId::Lobby {
                game: game(g)?,
                action: LobbyAction::ALL.into_iter().find(|x| x.as_str() == *a)?,
            }),
            ["m", g, v, i] => Some(CustomId::Play {
                game: game(g)?,
                version: version(v)?,
                index: i.parse().ok()?,
            }),
            ["h", g] => Some(CustomId::Hand { game: game(g)? }),
            ["z", g] => Some(CustomId::Zoom { game: game(g)? }),
            ["a", g] => Some(CustomId::Analyse { game: game(g)? }),
            ["b", g, b] => Some(CustomId::Takeback {
                game: game(g)?,
                button: TakebackButton::ALL.into_iter().find(|x| x.as_str() == *b)?,
            }),
            ["k", g, a] => Some(CustomId::Confirm {
                game: game(g)?,
                action: Confirm::ALL.into_iter().find(|x| x.as_str() == *a)?,
            }),
            ["r", g, v, k, a] => Some(CustomId::Rollback {
                game: game(g)?,
                version: version(v)?,
                keep: k.parse().ok()?,
                yes: match *a {
                    "y" => true,
                    "n" => false,
                    _ => return None,
                },
            }),
            ["p", g, n, b] => Some(CustomId::Replay {
                game: game(g)?,
                step: n.parse().ok()?,
                button: ReplayButton::ALL.into_iter().find(|x| x.as_str() == *b)?,
            }),
            _ => None,
        }
    }
}

/// Discord's limit on an autocomplete choice's value.
pub const MAX_CHOICE_VALUE: usize = 100;

/// The value `/move` autocomplete sends for an option of the prompt at `version`: the option
/// with ` #v<version>`, so a `/move` sent twice (or after the game moved on) is refused as
/// stale instead of played again. Players see only the option; no notation holds a `#`.
/// An option too long for the tag goes untagged.
pub fn move_value(option: &str, version: Version) -> String {
    let tagged = format!("{option} #v{}", version.0);
    if tagged.len() <= MAX_CHOICE_VALUE {
        tagged
    } else {
        option.to_string()
    }
}

/// The line and the version a `/move` value was picked at (none if it was typed by hand).
pub fn split_move_value(value: &str) -> (&str, Option<Version>) {
    if let Some((line, tag)) = value.rsplit_once(" #v") {
        if let Ok(v) = tag.parse::<u32>() {
            return (line, Some(Version(v)));
        }
    }
    (value, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_values_carry_their_version() {
        let v = move_value("put 2 g", Version(17));
        assert_eq!(v, "put 2 g #v17");
        assert_eq!(split_move_value(&v), ("put 2 g", Some(Version(17))));
        // Typed by hand, or a tag that is not ours: the whole line, no version.
        for typed in ["put 2 g", "put 2 g #v", "put 2 g #vx", "a #v-1", "#v3", ""] {
            assert_eq!(split_move_value(typed), (typed, None), "{typed}");
        }
        let long = "x".repeat(95);
        assert_eq!(move_value(&long, Version(123_456)), long);
        assert!(move_value(&"y".repeat(90), Version(u32::MAX)).len() <= MAX_CHOICE_VALUE);
    }

    #[test]
    fn ids_round_trip_and_fit() {
        let big = GameId(i64::MAX);
        let cases = [
            CustomId::Choose {
                game: big,
                version: Version(u32::MAX),
                index: 24,
            },
            CustomId::Menu {
                game: GameId(7),
                version: Version(3),
                part: 0,
            },
            CustomId::Menu {
                game: GameId(7),
                version: Version(3),
                part: 3,
            },
            CustomId::Group {
                game: GameId(7),
                version: Version(3),
            },
            CustomId::Lobby {
                game: GameId(1),
                action: LobbyAction::Cancel,
            },
            CustomId::Hand { game: GameId(9) },
            CustomId::Zoom { game: GameId(9) },
            CustomId::Analyse { game: big },
            CustomId::Confirm {
                game: big,
                action: Confirm::Resign,
            },
            CustomId::Confirm {
                game: GameId(4),
                action: Confirm::Keep,
            },
            CustomId::Confirm {
                game: GameId(5),
                action: Confirm::CancelResigning,
            },
            CustomId::Confirm {
                game: GameId(6),
                action: Confirm::Agree,
            },
            CustomId::Replay {
                game: big,
                step: u32::MAX,
                button: ReplayButton::Last,
            },
            CustomId::Replay {
                game: GameId(3),
                step: 0,
                button: ReplayButton::First,
            },
            CustomId::Play {
                game: big,
                version: Version(u32::MAX),
                index: 24,
            },
            CustomId::Rollback {
                game: big,
                version: Version(u32::MAX),
                keep: usize::MAX,
                yes: true,
            },
            CustomId::Rollback {
                game: GameId(3),
                version: Version(7),
                keep: 0,
                yes: false,
            },
        ];
        for c in cases {
            let s = c.encode();
            assert!(s.len() <= MAX_CUSTOM_ID, "{s}");
            assert_eq!(CustomId::decode(&s), Some(c));
        }
        assert_eq!(
            CustomId::Choose {
                game: GameId(12),
                version: Version(5),
                index: 2
            }
            .encode(),
            "g:12:5:2"
        );
    }

    #[test]
    fn a_confirmed_line_is_carried_whole_or_not_offered() {
        let id = play_line_id(GameId(12), Version(5), "move b3:2 c3; end").expect("fits");
        assert_eq!(id, "t:12:5:move b3:2 c3; end");
        assert_eq!(
            CustomId::decode(&id),
            Some(CustomId::PlayLine {
                game: GameId(12),
                version: Version(5)
            })
        );
        assert_eq!(confirmed_line(&id), Some("move b3:2 c3; end"));
        assert_eq!(play_line_id(GameId(12), Version(5), &"x".repeat(95)), None);
        assert_eq!(play_line_id(GameId(12), Version(5), ""), None);
        for bad in [
            "t:12:5:",
            "t:12:5",
            "t:x:5:end",
            "t:12:-1:end",
            "m:1:2",
            "m:1:2:x",
        ] {
            assert_eq!(CustomId::decode(bad), None, "{bad}");
        }
    }

    #[test]
    fn foreign_ids_are_ignored() {
        for s in [
            "",
            "g",
            "g:1:2",
            "g:x:1:1",
            "g:1:-1:0",
            "l:1:dance",
            "h:1:2",
            "zz:1",
            "s:1:2:0",
            "s:1:2:9",
            "o:1",
            "o:1:x",
            "k:1",
            "k:1:maybe",
            "p:1:2",
            "p:1:-1:n",
            "p:1:2:x",
            "a",
            "a:x",
            "a:1:2",
            "r:1:2:3",
            "r:1:2:3:maybe",
            "r:1:2:-3:y",
        ] {
            assert_eq!(CustomId::decode(s), None, "{s}");
        }
    }
}
