//! "Analyse my game" on a finished game's result card (issue 41, item 5): each seated
//! player's own analysis, answered privately in their language (`service::analysis` makes
//! it). Bots have nobody to click for them; a cancelled game has no result card and is
//! refused if its id is typed into a click.
//!
//! An analysis is seconds of search, so a click costs a member one of their renders
//! (`pace::MemberRenders`), an answer is kept for a while (the same member clicking again
//! gets it back at once), a second click while theirs is being made is told it is on its way,
//! and one analysis runs at a time in the process, on a blocking thread: the async workers
//! and the other render threads stay free.

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use poise::serenity_prelude as serenity;
use serenity::{ComponentInteraction, CreateAttachment, EditInteractionResponse};

use super::common::edit_click;
use super::layout::content;
use super::mentions::nobody;
use super::{id_i64, Data, Error};
use crate::ai::analysis::AnalysisBudget;
use crate::engine::GameId;
use crate::i18n::{Lang, Text};
use crate::service::AnalysisPost;

/// Analyses kept in memory (each holds up to three small boards, some hundred kB).
const KEPT: usize = 32;

/// Analyses run side by side at most in one process.
const AT_ONCE: usize = 1;

/// Whose analysis, of which game, in which language: (game, member, language).
type Key = (i64, i64, Lang);

/// The analyses of this process: the answers kept, the ones being made, and the one worker.
#[derive(Debug)]
pub struct Analyses {
    /// (game, member, language) and its answer, the newest last.
    kept: Mutex<VecDeque<(Key, Arc<AnalysisPost>)>>,
    /// (game, member) whose analysis is being made now.
    making: Mutex<HashSet<(i64, i64)>>,
    worker: tokio::sync::Semaphore,
}

impl Default for Analyses {
    fn default() -> Analyses {
        Analyses {
            kept: Mutex::default(),
            making: Mutex::default(),
            worker: tokio::sync::Semaphore::new(AT_ONCE),
        }
    }
}

/// A (game, member) marked as being made; unmarked when dropped, whatever happened.
struct Making<'a> {
    analyses: &'a Analyses,
    key: (i64, i64),
}

impl Drop for Making<'_> {
    fn drop(&mut self) {
        self.analyses
            .making
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.key);
    }
}

impl Analyses {
    fn kept(&self, key: Key) -> Option<Arc<AnalysisPost>> {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.iter().find(|(k, _)| *k == key).map(|(_, p)| p.clone())
    }

    fn keep(&self, key: Key, post: Arc<AnalysisPost>) {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.retain(|(k, _)| *k != key);
        if kept.len() >= KEPT {
            kept.pop_front();
        }
        kept.push_back((key, post));
    }

    /// Marks (game, member) as being made, or `None` if it already is.
    fn start(&self, key: (i64, i64)) -> Option<Making<'_>> {
        let fresh = self
            .making
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key);
        fresh.then_some(Making {
            analyses: self,
            key,
        })
    }
}

/// A click on "Analyse my game" (acknowledged as a private answer to fill in).
pub async fn click(
    http: &serenity::Http,
    click: &ComponentInteraction,
    data: &Data,
    game: GameId,
    lang: Lang,
) -> Result<(), Error> {
    data.may_render(click.user.id.get()).map_err(Error::User)?;
    let user = id_i64(click.user.id.get());
    // A refusal (not a player, a cancelled game) comes at once, never after a queue.
    data.service.records().analysis_seat(game, user).await?;
    let key = (game.0, user, lang);
    let post = match data.analyses.kept(key) {
        Some(post) => post,
        None => {
            let Some(_making) = data.analyses.start((game.0, user)) else {
                let busy = Text::new("analysis.busy").render(lang);
                let edit = EditInteractionResponse::new()
                    .content(content(&busy))
                    .allowed_mentions(nobody());
                edit_click(http, &data.pace, click, "answer a repeated analysis", edit).await?;
                return Ok(());
            };
            let _worker =
                data.analyses.worker.acquire().await.map_err(|e| {
                    Error::Service(crate::service::ServiceError::Task(e.to_string()))
                })?;
            let post = data
                .service
                .records()
                .analysis(game, user, lang, AnalysisBudget::default())
                .await?;
            let post = Arc::new(post);
            data.analyses.keep(key, post.clone());
            post
        }
    };
    let mut edit = EditInteractionResponse::new()
        .content(content(&post.text))
        .allowed_mentions(nobody());
    for (n, (png, alt)) in post.boards.iter().enumerate() {
        let file = CreateAttachment::bytes(png.clone(), format!("analysis-{}.png", n + 1))
            .description(alt.chars().take(1024).collect::<String>());
        edit = edit.new_attachment(file);
    }
    edit_click(http, &data.pace, click, "show an analysis", edit).await?;
    Ok(())
}
