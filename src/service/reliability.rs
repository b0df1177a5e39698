//! Reliability, shown and usable (issue 40, item 3): a member's record over the last
//! [`RECORD_DAYS`] days (turns played in time, deadlines missed, games abandoned and finished,
//! counted by the store as they happen), the figure read from it, and its words for `/stats`
//! and the lobby. A lobby opened with `reliable:` refuses a member under its figure
//! (`Lobbies::join`); members with no record yet, and bots, are let in.

use super::{Players, ServiceError};
use crate::i18n::{Lang, Text};
use crate::store::Conduct;

/// The span of a member's record, in days.
pub const RECORD_DAYS: i64 = 30;

const DAY_SECS: i64 = 86_400;

/// When the record of a member read at `now` starts.
pub fn record_since(now: i64) -> i64 {
    now.saturating_sub(RECORD_DAYS * DAY_SECS)
}

/// A member's reliability in percent (rounded down: 99.6 is not 100): the turns they played
/// in time out of the turns that were theirs to play, where each game they walked away from
/// counts as one more missed deadline, as webDiplomacy counts missed turns and BGA counts
/// games left. Games finished show beside it but do not raise it: a finished game is made of
/// turns played in time already. `None`: nothing to judge yet (a new member).
pub fn reliability(c: &Conduct) -> Option<u8> {
    let kept = i128::from(c.met.max(0));
    let due = kept + i128::from(c.missed.max(0)) + i128::from(c.abandoned.max(0));
    if due == 0 {
        return None;
    }
    u8::try_from(kept * 100 / due).ok()
}

/// Refuses `user` where a game asks for at least `min` (`reliable:`): a joining player or a
/// substitute under it. A member with no record yet is let in.
pub(super) async fn require(
    core: &super::core::Core,
    user: i64,
    min: u8,
    now: i64,
) -> Result<(), ServiceError> {
    let c = core.store.conduct(user, record_since(now)).await?;
    match reliability(&c).filter(|f| *f < min) {
        Some(figure) => Err(super::LobbyError::Unreliable { figure, min }.into()),
        None => Ok(()),
    }
}

/// The figure as the lobby shows it beside a name: `92%`, or "new".
pub fn figure_text(c: &Conduct, lang: Lang) -> String {
    match reliability(c) {
        Some(p) => format!("{p}%"),
        None => Text::new("bot.reliability.new").render(lang),
    }
}

/// The record as `/stats user:` shows it.
pub fn record_text(c: &Conduct, lang: Lang) -> String {
    Text::new("bot.reliability.record")
        .arg("figure", figure_text(c, lang))
        .arg("days", RECORD_DAYS)
        .arg("met", c.met)
        .arg("missed", c.missed)
        .arg("abandoned", c.abandoned)
        .arg("finished", c.finished)
        .render(lang)
}

impl Players<'_> {
    /// `user`'s record over the last [`RECORD_DAYS`] days, as of `now`.
    pub async fn record(self, user: i64, now: i64) -> Result<Conduct, ServiceError> {
        Ok(self.core.store.conduct(user, record_since(now)).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(met: i64, missed: i64, abandoned: i64, finished: i64) -> Conduct {
        Conduct {
            met,
            missed,
            abandoned,
            finished,
        }
    }

    #[test]
    fn reliability_is_turns_in_time_out_of_turns_due_and_left_games_count_as_missed() {
        assert_eq!(reliability(&c(0, 0, 0, 0)), None, "new");
        // Finished games alone tell nothing new: their turns are counted as turns.
        assert_eq!(reliability(&c(0, 0, 0, 3)), None);
        assert_eq!(reliability(&c(10, 0, 0, 1)), Some(100));
        assert_eq!(reliability(&c(9, 1, 0, 0)), Some(90));
        assert_eq!(reliability(&c(8, 1, 1, 0)), Some(80));
        assert_eq!(reliability(&c(0, 2, 0, 0)), Some(0));
        assert_eq!(reliability(&c(0, 0, 1, 0)), Some(0));
        // Rounded down: one miss in 250 turns is not a perfect record.
        assert_eq!(reliability(&c(249, 1, 0, 0)), Some(99));
        assert_eq!(reliability(&c(2, 1, 0, 0)), Some(66));
        // Nothing overflows or goes negative.
        assert_eq!(reliability(&c(i64::MAX, i64::MAX, 0, 0)), Some(50));
        assert_eq!(reliability(&c(i64::MAX, 0, 0, 0)), Some(100));
        assert_eq!(reliability(&c(-5, 0, 0, 0)), None);
    }

    #[test]
    fn the_figure_and_the_record_read_in_both_languages() {
        assert_eq!(figure_text(&c(9, 1, 0, 0), Lang::En), "90%");
        assert_eq!(figure_text(&c(0, 0, 0, 0), Lang::En), "new");
        assert_eq!(figure_text(&c(0, 0, 0, 0), Lang::Fr), "nouveau");
        let en = record_text(&c(9, 1, 0, 2), Lang::En);
        assert!(en.contains("90%") && en.contains("30 days"), "{en}");
        assert!(en.contains("1 deadline missed"), "{en}");
        let fr = record_text(&c(9, 2, 1, 0), Lang::Fr);
        assert!(fr.contains("2 délais manqués"), "{fr}");
    }
}
